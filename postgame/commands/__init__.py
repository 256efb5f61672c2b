"""One module per subcommand; each exposes `register(subparsers)` and a `run(args) -> int`."""
