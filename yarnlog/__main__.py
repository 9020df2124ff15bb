from yarnlog.cli import main

main()
