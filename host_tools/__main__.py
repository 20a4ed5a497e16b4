import sys

from host_tools.cli import main

sys.exit(main())
