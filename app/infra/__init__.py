"""Infrastructure under the services: what Muster needs from the machine, not a use case.

`pdf` (WeasyPrint in its own process, the print cache), `replica` (Litestream copies of the
database), `disk` (room left for the database) and `heap` (a worker's memory kept near its
idle size).
"""
