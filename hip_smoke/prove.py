"""``python -m hip_smoke.prove``: ``hipify-py prove`` where only Python (with
click and PyYAML) is installed: building the CUDA originals (``--platform
cuda``) and ``--run-prebuilt`` need no translator."""

from .prove_cli import main

if __name__ == "__main__":
    main()
