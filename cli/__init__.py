"""The ``rummikub`` command line: parse arguments, call the library, print."""
