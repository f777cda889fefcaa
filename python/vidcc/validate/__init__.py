"""Differential validation against ns-2 2.35 (`make validate`; docs/validation.md).

Modules: `cases` (the case table: vidcc scenarios, bands, expected outcomes), `layout` (the
network vidcc built, as data), `tcl` (ns-2 script generator), `ns2` (running ns-2, reading its
results), `metrics` (the compared metrics, both sides), `compare` (bands and verdicts), `suite`
(running everything: table and JSON).
"""
