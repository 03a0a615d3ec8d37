"""What the commands share: flags and how they are read, limits and stopping, reports and output formats,
exit codes, progress, and the built-in examples' paths. It imports no command (dmcheck/commands/).
"""
