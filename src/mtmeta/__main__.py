from mtmeta.cli import main

raise SystemExit(main())
