"""External engines checked against dmcheck: bundles of explored runs (`bundle.py`), an engine process
spoken to over the conform protocol (`process.py`), and the engine-conformance runner that walks a bundle
against it (`runner.py`; docs/conform.md). It imports no command (dmcheck/commands/).
"""
