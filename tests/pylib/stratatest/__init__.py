"""stratatest: the Python shared by strata's tests and evaluation scripts.

A plain folder, imported without installing anything: a script puts
tests/pylib on sys.path from its own location (so that it works from any
build tree) and imports the modules it needs:

  stratatest.commands  running strata record, strata report --json and other
                       commands with their output kept in files; SetupError
  stratatest.findings  the leak findings of a report's JSON: their names, and
                       whether they name a function (C++ names with scope and
                       parameters)
  stratatest.scores    ratios printed as "0.75 (3/4)", and selecting items by
                       name with -k patterns
"""
