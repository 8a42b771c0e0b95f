"""The services: one use case each, between the web layer and the store, holding no SQL.

Games (`games`, with its replay cache `replays`), rosters (`rosters`, `list_import`), terrain
(`terrain_sets`, `terrain_library`), game clocks (`clocks`) and club events (`club`). A
service asks the pure rules (app/rules/) and writes through the store (app/store/); it
never reads a request.
"""
