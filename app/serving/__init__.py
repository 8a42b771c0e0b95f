"""Serving: gunicorn and what stands around it (`python -m app serve`).

HTTPS settings and certificates (`tls`, `certificate`, `https`), Debian's nginx in front
(`front`), plain HTTP sent on to HTTPS (`redirect`), the club's LAN address and its DuckDNS
name (`lan`, `duckdns`) and the access log with tokens cut out (`access_log`).
"""
