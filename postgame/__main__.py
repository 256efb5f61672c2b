"""`python -m postgame ...`: the same command line as the `postgame` script."""
from postgame.cli import main

raise SystemExit(main())
