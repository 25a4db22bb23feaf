"""The engine: routing, retries, deadlines, hedging and the sharing of concurrent config calls.

``engine`` runs operations over the transport; ``coalesce`` gathers config calls made at the
same moment into one request per broker; ``lifetime`` is the task group the client's calls run in.
"""
