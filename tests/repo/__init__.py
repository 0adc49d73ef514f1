"""The repository as a whole: the package layout and import costs, the docs and their
figures, the build, the contributor's commands, and the test run's own home guard."""
