"""The network table: host server, table page and the terminal client."""
