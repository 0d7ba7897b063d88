"""Working on a tree of files: discovery (.gitignore, git-tracked files), the
project's own headers and names, build files, configuration, the tree lock,
atomic writes, the result cache and the (parallel) runner."""
