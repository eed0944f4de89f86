from mtmeta.app.cli import main

raise SystemExit(main())
