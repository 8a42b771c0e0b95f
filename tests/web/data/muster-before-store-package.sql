BEGIN TRANSACTION;
CREATE TABLE "_sqlite_migrations" (
   "id" INTEGER PRIMARY KEY,
   "migration_set" TEXT,
   "name" TEXT,
   "applied_at" TEXT
);
INSERT INTO "_sqlite_migrations" VALUES(1,'muster','m001_games_and_events','2026-12-01 19:18:37.148847+00:00');
INSERT INTO "_sqlite_migrations" VALUES(2,'muster','m002_rosters','2026-12-01 19:18:37.156182+00:00');
INSERT INTO "_sqlite_migrations" VALUES(3,'muster','m003_terrain','2026-12-01 19:18:37.162474+00:00');
INSERT INTO "_sqlite_migrations" VALUES(4,'muster','m004_club','2026-12-01 19:18:37.167492+00:00');
INSERT INTO "_sqlite_migrations" VALUES(5,'muster','m005_games_by_night','2026-12-01 19:18:37.174014+00:00');
INSERT INTO "_sqlite_migrations" VALUES(6,'muster','m006_summaries_and_admin_sessions','2026-12-01 19:18:37.181821+00:00');
INSERT INTO "_sqlite_migrations" VALUES(7,'muster','m008_terrain_owners','2026-12-01 19:18:37.199864+00:00');
INSERT INTO "_sqlite_migrations" VALUES(8,'muster','m009_roster_limits_and_owners','2026-12-01 19:18:37.215598+00:00');
INSERT INTO "_sqlite_migrations" VALUES(9,'muster','m010_roster_owners','2026-12-01 19:18:37.218111+00:00');
CREATE TABLE "admin_sessions" (
   "id_hash" TEXT PRIMARY KEY,
   "password_mark" TEXT NOT NULL,
   "created" TEXT NOT NULL
);
CREATE TABLE "custom_units" (
   "pack" TEXT,
   "key" TEXT,
   "body" TEXT NOT NULL,
   "uses" INTEGER NOT NULL,
   "updated" TEXT NOT NULL,
   "owner" TEXT NOT NULL DEFAULT '',
   PRIMARY KEY ("pack", "owner", "key")
);
INSERT INTO "custom_units" VALUES('aos-ghb-2021','unit:lord kroak','{"name": "Lord Kroak", "kind": "unit", "points": 430, "roles": ["Leader"], "keywords": ["HERO", "WIZARD"], "size": "minimum", "models": null, "single_model": true, "ally": false, "coalition": false, "faction": null}',1,'2026-12-01T19:18:38.334Z','80ac2d9a0b4b1c104fc9c3cdc5c2a5dc54653253b2e5035a64ac9e171902a7b7');
INSERT INTO "custom_units" VALUES('aos-ghb-2021','unit:saurus guard','{"name": "Saurus Guard", "kind": "unit", "points": 115, "roles": ["Battleline"], "keywords": [], "size": "minimum", "models": null, "single_model": false, "ally": false, "coalition": false, "faction": null}',1,'2026-12-01T19:18:38.334Z','80ac2d9a0b4b1c104fc9c3cdc5c2a5dc54653253b2e5035a64ac9e171902a7b7');
INSERT INTO "custom_units" VALUES('aos-ghb-2021','unit:saurus warriors','{"name": "Saurus Warriors", "kind": "unit", "points": 200, "roles": ["Battleline"], "keywords": [], "size": "reinforced", "models": null, "single_model": false, "ally": false, "coalition": false, "faction": null}',1,'2026-12-01T19:18:38.334Z','80ac2d9a0b4b1c104fc9c3cdc5c2a5dc54653253b2e5035a64ac9e171902a7b7');
INSERT INTO "custom_units" VALUES('aos-ghb-2021','unit:skinks','{"name": "Skinks", "kind": "unit", "points": 70, "roles": ["Battleline"], "keywords": [], "size": "minimum", "models": null, "single_model": false, "ally": false, "coalition": false, "faction": null}',1,'2026-12-01T19:18:38.334Z','80ac2d9a0b4b1c104fc9c3cdc5c2a5dc54653253b2e5035a64ac9e171902a7b7');
INSERT INTO "custom_units" VALUES('aos-ghb-2021','unit:stegadon','{"name": "Stegadon", "kind": "unit", "points": 270, "roles": ["Behemoth"], "keywords": ["MONSTER"], "size": "minimum", "models": null, "single_model": false, "ally": false, "coalition": false, "faction": null}',1,'2026-12-01T19:18:38.334Z','80ac2d9a0b4b1c104fc9c3cdc5c2a5dc54653253b2e5035a64ac9e171902a7b7');
CREATE TABLE "events" (
   "seq" INTEGER PRIMARY KEY,
   "id" TEXT NOT NULL,
   "game_id" TEXT NOT NULL REFERENCES "games"("id"),
   "type" TEXT NOT NULL,
   "body" TEXT NOT NULL,
   "recorded" TEXT NOT NULL
);
INSERT INTO "events" VALUES(1,'030397d2-afe4-42c6-b682-6b92e3a99d48','KSNHhrHNWCIFRuCw3L0Sjw','battle_round','{"first": 0, "id": "030397d2-afe4-42c6-b682-6b92e3a99d48", "round": 1, "type": "battle_round"}','2026-12-01T19:18:38.276Z');
INSERT INTO "events" VALUES(2,'5a6b6bb0-1a49-4a8a-bfe0-8240c2cc4524','KSNHhrHNWCIFRuCw3L0Sjw','turn','{"control": {"west": 0}, "id": "5a6b6bb0-1a49-4a8a-bfe0-8240c2cc4524", "player": 0, "round": 1, "type": "turn"}','2026-12-01T19:18:38.314Z');
CREATE TABLE "game_rosters" (
   "seq" INTEGER PRIMARY KEY,
   "game_id" TEXT NOT NULL REFERENCES "games"("id"),
   "player" INTEGER NOT NULL,
   "roster_id" TEXT NOT NULL,
   "snapshot" TEXT NOT NULL,
   "attached" TEXT NOT NULL
);
INSERT INTO "game_rosters" VALUES(1,'KSNHhrHNWCIFRuCw3L0Sjw',0,'oS04A6X93AZ_2OVv6fRkMA','{"pack": "aos-ghb-2021", "name": "Hammerfest", "points_limit": 2000, "faction": "Seraphon", "grand_strategy": "prized-sorcery", "entries": [{"uid": "9ed467ce", "name": "Lord Kroak", "kind": "unit", "points": 430, "roles": ["Leader"], "keywords": ["HERO", "WIZARD"], "size": "minimum", "models": null, "single_model": true, "ally": false, "coalition": false, "general": true, "command_trait": null, "enhancements": [], "faction": null, "notes": ""}, {"uid": "c0de0f4d", "name": "Saurus Guard", "kind": "unit", "points": 115, "roles": ["Battleline"], "keywords": [], "size": "minimum", "models": null, "single_model": false, "ally": false, "coalition": false, "general": false, "command_trait": null, "enhancements": [], "faction": null, "notes": ""}, {"uid": "2cb8908e", "name": "Saurus Warriors", "kind": "unit", "points": 200, "roles": ["Battleline"], "keywords": [], "size": "reinforced", "models": null, "single_model": false, "ally": false, "coalition": false, "general": false, "command_trait": null, "enhancements": [], "faction": null, "notes": ""}, {"uid": "db8e866d", "name": "Skinks", "kind": "unit", "points": 70, "roles": ["Battleline"], "keywords": [], "size": "minimum", "models": null, "single_model": false, "ally": false, "coalition": false, "general": false, "command_trait": null, "enhancements": [], "faction": null, "notes": ""}, {"uid": "0f0ec65f", "name": "Stegadon", "kind": "unit", "points": 270, "roles": ["Behemoth"], "keywords": ["MONSTER"], "size": "minimum", "models": null, "single_model": false, "ally": false, "coalition": false, "general": false, "command_trait": null, "enhancements": [], "faction": null, "notes": ""}]}','2026-12-01T19:18:38.368Z');
CREATE TABLE "games" (
   "id" TEXT PRIMARY KEY,
   "edit_token_hash" TEXT NOT NULL,
   "pack" TEXT NOT NULL,
   "scenario" TEXT NOT NULL,
   "points_limit" INTEGER NOT NULL,
   "players" TEXT NOT NULL,
   "created" TEXT NOT NULL
, "archived" TEXT, "summary" TEXT, "summary_seq" INTEGER);
INSERT INTO "games" VALUES('KSNHhrHNWCIFRuCw3L0Sjw','d8123279f61683a0565f5eba311abe0530dbd079ab86125e8d62aeb03fc3e7e9','aos-ghb-2021','savage-gains',2000,'[{"name": "Ann", "side": "attacker", "grand_strategy": "hold-the-line"}, {"name": "Bo", "side": "defender", "grand_strategy": "vendetta"}]','2026-12-01T19:18:38.251Z',NULL,'{"pack": "71cd014b0624468f", "vp": [2, 0], "round": 1, "finished": false, "result": null}',2);
INSERT INTO "games" VALUES('OX6ivYUGXYmS7kgSN7Upng','123caf66f67b2b0d34d62d084c1600145041a72e0355f4801a3b3ac19e6446cc','conquest-first-blood','outflank',800,'[{"name": "Ann", "side": "player1", "grand_strategy": null}, {"name": "Bo", "side": "player2", "grand_strategy": null}]','2026-12-01T19:18:38.414Z',NULL,NULL,NULL);
CREATE TABLE "login_failures" (
   "id" INTEGER PRIMARY KEY,
   "address" TEXT NOT NULL,
   "at" TEXT NOT NULL
);
CREATE TABLE "rosters" (
   "id" TEXT PRIMARY KEY,
   "edit_token_hash" TEXT NOT NULL,
   "pack" TEXT NOT NULL,
   "body" TEXT NOT NULL,
   "version" INTEGER NOT NULL,
   "created" TEXT NOT NULL,
   "updated" TEXT NOT NULL
, "owner" TEXT);
INSERT INTO "rosters" VALUES('oS04A6X93AZ_2OVv6fRkMA','60ebfd020b0ef1f1757ca6b960da0dc60dcb1ab2a117369ba53fdeceee193ab8','aos-ghb-2021','{"pack": "aos-ghb-2021", "name": "Hammerfest", "points_limit": 2000, "faction": "Seraphon", "grand_strategy": "prized-sorcery", "entries": [{"uid": "9ed467ce", "name": "Lord Kroak", "kind": "unit", "points": 430, "roles": ["Leader"], "keywords": ["HERO", "WIZARD"], "size": "minimum", "models": null, "single_model": true, "ally": false, "coalition": false, "general": true, "command_trait": null, "enhancements": [], "faction": null, "notes": ""}, {"uid": "c0de0f4d", "name": "Saurus Guard", "kind": "unit", "points": 115, "roles": ["Battleline"], "keywords": [], "size": "minimum", "models": null, "single_model": false, "ally": false, "coalition": false, "general": false, "command_trait": null, "enhancements": [], "faction": null, "notes": ""}, {"uid": "2cb8908e", "name": "Saurus Warriors", "kind": "unit", "points": 200, "roles": ["Battleline"], "keywords": [], "size": "reinforced", "models": null, "single_model": false, "ally": false, "coalition": false, "general": false, "command_trait": null, "enhancements": [], "faction": null, "notes": ""}, {"uid": "db8e866d", "name": "Skinks", "kind": "unit", "points": 70, "roles": ["Battleline"], "keywords": [], "size": "minimum", "models": null, "single_model": false, "ally": false, "coalition": false, "general": false, "command_trait": null, "enhancements": [], "faction": null, "notes": ""}, {"uid": "0f0ec65f", "name": "Stegadon", "kind": "unit", "points": 270, "roles": ["Behemoth"], "keywords": ["MONSTER"], "size": "minimum", "models": null, "single_model": false, "ally": false, "coalition": false, "general": false, "command_trait": null, "enhancements": [], "faction": null, "notes": ""}]}',1,'2026-12-01T19:18:38.328Z','2026-12-01T19:18:38.328Z','f52694ab7ea0d0c9e5c4e439');
CREATE TABLE "terrain_events" (
   "seq" INTEGER PRIMARY KEY,
   "id" TEXT NOT NULL,
   "set_id" TEXT NOT NULL REFERENCES "terrain_sets"("id"),
   "type" TEXT NOT NULL,
   "body" TEXT NOT NULL,
   "at" TEXT NOT NULL
);
INSERT INTO "terrain_events" VALUES(1,'e6d0a195-331a-4c7f-8da5-48bb4adf4beb','KVDNIe5WzQoX0jj3zWmdOA','piece','{"piece": {"capacity": null, "defense": null, "elevation": null, "faction": false, "footprint": null, "fortress": false, "keywords": ["obstructing", "elevated"], "kind": "zonal", "mysterious": null, "name": "Hill", "notes": "", "obscuring": false, "ruins": false, "size": 2, "warscroll": false, "x": null, "y": null}, "piece_uid": "30040ab2a8"}','2026-12-01T19:18:39.271Z');
INSERT INTO "terrain_events" VALUES(2,'0b255c50-86f8-41b8-9108-7cefa3c6d601','KVDNIe5WzQoX0jj3zWmdOA','piece','{"piece": {"capacity": null, "defense": null, "elevation": null, "faction": false, "footprint": null, "fortress": false, "keywords": [], "kind": "zonal", "mysterious": null, "name": "Old Ruin", "notes": "", "obscuring": false, "ruins": false, "size": 1, "warscroll": false, "x": null, "y": null}, "piece_uid": "c8f47ba0fe"}','2026-12-01T19:18:39.306Z');
CREATE TABLE "terrain_library" (
   "id" TEXT PRIMARY KEY,
   "pack" TEXT NOT NULL,
   "name" TEXT NOT NULL,
   "pieces" TEXT NOT NULL,
   "created" TEXT NOT NULL
, "owner" TEXT NOT NULL DEFAULT 'club');
CREATE TABLE "terrain_presets" (
   "pack" TEXT,
   "name" TEXT,
   "body" TEXT NOT NULL,
   "updated" TEXT NOT NULL,
   "owner" TEXT NOT NULL DEFAULT 'club',
   PRIMARY KEY ("pack", "owner", "name")
);
INSERT INTO "terrain_presets" VALUES('conquest-first-blood','Old Ruin','{"name": "Old Ruin", "notes": "", "size": 1, "kind": "zonal", "keywords": [], "ruins": false, "obscuring": false, "faction": false, "warscroll": false, "fortress": false}','2026-12-01T19:18:39.310Z','phone:f52694ab7ea0d0c9e5c4e439');
CREATE TABLE "terrain_sets" (
   "id" TEXT PRIMARY KEY,
   "game_id" TEXT NOT NULL REFERENCES "games"("id"),
   "pack" TEXT NOT NULL,
   "created" TEXT NOT NULL
);
INSERT INTO "terrain_sets" VALUES('KVDNIe5WzQoX0jj3zWmdOA','OX6ivYUGXYmS7kgSN7Upng','conquest-first-blood','2026-12-01T19:18:39.268Z');
CREATE UNIQUE INDEX "idx__sqlite_migrations_migration_set_name"
    ON "_sqlite_migrations" ("migration_set", "name");
CREATE UNIQUE INDEX "idx_events_id"
    ON "events" ("id");
CREATE INDEX "idx_events_game_id_seq"
    ON "events" ("game_id", "seq");
CREATE TRIGGER events_no_update BEFORE UPDATE ON events BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
CREATE INDEX "idx_rosters_updated"
    ON "rosters" ("updated");
CREATE INDEX "idx_game_rosters_game_id_seq"
    ON "game_rosters" ("game_id", "seq");
CREATE UNIQUE INDEX "idx_terrain_sets_game_id"
    ON "terrain_sets" ("game_id");
CREATE UNIQUE INDEX "idx_terrain_events_id"
    ON "terrain_events" ("id");
CREATE INDEX "idx_terrain_events_set_id_seq"
    ON "terrain_events" ("set_id", "seq");
CREATE TRIGGER terrain_events_no_update BEFORE UPDATE ON terrain_events BEGIN SELECT RAISE(ABORT, 'terrain events are append-only'); END;
CREATE INDEX "idx_login_failures_address_at"
    ON "login_failures" ("address", "at");
CREATE INDEX "idx_games_archived_created"
    ON "games" ("archived", "created");
CREATE INDEX "idx_terrain_library_pack_owner_created"
    ON "terrain_library" ("pack", "owner", "created");
CREATE INDEX "idx_custom_units_pack_owner_uses"
    ON "custom_units" ("pack", "owner", "uses");
CREATE INDEX "idx_rosters_owner_pack_updated"
    ON "rosters" ("owner", "pack", "updated");
COMMIT;
