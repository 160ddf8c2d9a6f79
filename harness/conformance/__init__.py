"""The conformance tests, run with ``pytest --pyargs toolconform.conformance``.

They need the ``toolconform`` pytest plugin (installed with the package) and take their
options from the command line: ``--toolconform-adapter=module:callable`` and friends.
"""
