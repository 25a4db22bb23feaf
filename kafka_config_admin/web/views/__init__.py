"""The editor's pages, one module per kind of page, over :mod:`.base`."""
