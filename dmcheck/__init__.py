"""The dmcheck application layer: the command line and its reports (thin: it calls the packages)."""
