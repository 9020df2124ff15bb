from yarnlog.cli.main import main

main()
