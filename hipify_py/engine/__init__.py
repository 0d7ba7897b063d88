"""Translating one file's bytes: parse, the per-file context, the edits, the
diagnostics catalogue and the Options that steer it.  Pure: no file system
writes, no printing."""
