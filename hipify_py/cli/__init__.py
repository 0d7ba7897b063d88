"""The command line: click commands, option declarations, what is printed and
the exit codes.  The only package that prints or exits."""
