import sys

from host_tools.cli import main

if __name__ == "__main__":     # not when a spawned plug-in worker re-imports this module
    sys.exit(main())
