"""What happened: typed match events, the log file format and its codecs. No game rules here."""
