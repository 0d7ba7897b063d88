from hipify_py.cli.main import main

main()
