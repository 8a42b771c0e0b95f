"""Unit catalogues: the ready-made units the army builder offers, by faction.

A catalogue is a YAML file in ``rulepacks/catalogues/``, generated from public community data
by tools/catalogues.py (facts only: names, points, models, keywords, roles). A pack names the
catalogue it uses (``catalogue: aos-3``); a pack without one builds armies as before, from
units players type. The loader checks a catalogue as strictly as a pack.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field, PrivateAttr, ValidationError, model_validator

from app.rules.pack_base import Id, Model, Text
from app.rules.pack_files import PackError, read_yaml

# A catalogue of every Age of Sigmar faction is about 150 KB; this leaves room for growth.
MAX_CATALOGUE_BYTES = 2 * 1024 * 1024

# The roles a catalogue may give, in the words the roster checks use.
ROLES = frozenset(
    {"leader", "battleline", "behemoth", "artillery", "character", "regiment"}
    | {"characters", "core", "special", "rare", "mercenaries", "allies"}
)


class Unit(Model):
    """One unit a faction fields, at its smallest size."""

    name: Text
    points: int = Field(ge=0, le=100_000)
    models: int = Field(default=1, ge=1, le=1000)
    keywords: list[Text] = Field(default_factory=list)
    roles: list[Text] = Field(default_factory=list)
    unique: bool = False
    single_model: bool = False
    # What one step of reinforcement costs, and whether a second step is allowed.
    reinforced_points: int | None = Field(default=None, ge=0, le=100_000)
    reinforced_twice: bool = False
    # Battleline only when the general is one of these units, or the army has one of these.
    battleline_if_general: list[Text] = Field(default_factory=list)
    battleline_if_army_has: list[Text] = Field(default_factory=list)
    # Conquest: the regiment type; The Old World: the list's section and the price of a model.
    type: Id | None = None
    category: Id | None = None
    points_per_model: float | None = Field(default=None, ge=0)

    @model_validator(mode="after")
    def _known_roles(self) -> Unit:
        wrong = [r for r in self.roles if r not in ROLES]
        if wrong:
            raise ValueError(f"roles {wrong} are not roles Muster checks: {', '.join(sorted(ROLES))}")
        return self

    def battleline_with(self, general: str | None, army: set[str]) -> bool:
        """Whether the unit is Battleline in an army led by ``general`` and holding ``army``."""
        if "battleline" in self.roles:
            return True
        key = general.casefold() if general else None
        if key and any(key == name.casefold() for name in self.battleline_if_general):
            return True
        return any(name.casefold() in army for name in self.battleline_if_army_has)

    def as_entry(self) -> dict[str, Any]:
        """The unit as the API and the builder show it (roles in the roster checks' words)."""
        return self.model_dump(exclude_defaults=True) | {
            "name": self.name,
            "points": self.points,
            "models": self.models,
            "keywords": list(self.keywords),
            "roles": list(self.roles),
        }


class Faction(Model):
    id: Id
    name: Text
    grand_alliance: Text | None = None
    subfactions: list[Text] = Field(default_factory=list)
    # The ids of the factions whose units the faction may take as allies; empty where the data
    # names none (the roster checks then take the ally flag a player sets).
    allies: list[Id] = Field(default_factory=list)
    units: list[Unit] = Field(default_factory=list)


class Catalogue(Model):
    """Every faction of one data set, with where the facts come from."""

    id: Id
    source: Text
    source_url: Text | None = None
    commit: Text | None = None
    licence: Text
    season: Text
    note: Text | None = None
    factions: list[Faction]
    # Units by folded name, per faction id and for all ("") at once: built on first use.
    _index: dict[str, dict[str, Unit]] = PrivateAttr(default_factory=dict)

    @model_validator(mode="after")
    def _unique_factions(self) -> Catalogue:
        seen: set[str] = set()
        for f in self.factions:
            if f.id in seen:
                raise ValueError(f"faction id {f.id!r} is used twice")
            seen.add(f.id)
        for f in self.factions:
            unknown = [a for a in f.allies if a not in seen]
            if unknown:
                raise ValueError(
                    f"faction {f.id!r} names allies {unknown} that are not factions of the catalogue"
                )
        return self

    def faction(self, key: str | None) -> Faction | None:
        """The faction of that id or name (any case), if any."""
        if not key:
            return None
        folded = key.casefold().strip()
        return next((f for f in self.factions if folded in (f.id, f.name.casefold())), None)

    def allies_of(self, faction: str | None) -> list[Faction]:
        """The factions whose units ``faction`` may take as allies (none where the data is silent)."""
        found = self.faction(faction)
        if found is None:
            return []
        return [f for f in (self.faction(a) for a in found.allies) if f is not None]

    def units(self, faction: str | None = None) -> list[Unit]:
        """The units of a faction, or of every faction (a name once) when none is given."""
        found = self.faction(faction)
        if found is not None:
            return list(found.units)
        seen: dict[str, Unit] = {}
        for f in self.factions:
            for u in f.units:
                seen.setdefault(u.name.casefold(), u)
        return list(seen.values())

    def find(self, name: str, faction: str | None = None) -> Unit | None:
        """The unit of that name (any case), in the faction first, then in any faction."""
        if not self._index:
            everywhere: dict[str, Unit] = {}
            for f in self.factions:
                own = {u.name.casefold(): u for u in f.units}
                self._index[f.id] = own
                for key, unit in own.items():
                    everywhere.setdefault(key, unit)
            self._index[""] = everywhere
        key = " ".join(name.casefold().split())
        found = self.faction(faction)
        if found is not None and key in self._index[found.id]:
            return self._index[found.id][key]
        return self._index[""].get(key)

    def as_dict(self) -> dict[str, Any]:
        """The catalogue as ``GET /api/v1/packs/<pack>/catalogue`` answers it."""
        return {
            "id": self.id,
            "source": self.source,
            "source_url": self.source_url,
            "commit": self.commit,
            "licence": self.licence,
            "season": self.season,
            "note": self.note,
            "factions": [
                {
                    "id": f.id,
                    "name": f.name,
                    "grand_alliance": f.grand_alliance,
                    "subfactions": list(f.subfactions),
                    "allies": list(f.allies),
                    "units": [u.as_entry() for u in f.units],
                }
                for f in self.factions
            ],
        }


def search(units: list[Unit], query: str) -> list[Unit]:
    """The units whose names hold every word typed, in any case, in the order given."""
    words = query.casefold().split()
    return [u for u in units if all(w in u.name.casefold() for w in words)]


def grouped(
    units: list[Unit], groups: tuple[tuple[str, str], ...], battleline: set[str] | None = None
) -> list[tuple[str, list[Unit]]]:
    """The units in the builder's groups (each unit once, in its first group whose role it has;
    a group of role "" takes any unit): ``groups`` are the army rules' (role, title) pairs, and
    ``battleline`` names the units that are Battleline in this army by a condition (the
    general, say)."""
    extra = {n.casefold() for n in battleline or set()}
    out: list[tuple[str, list[Unit]]] = []
    placed: set[str] = set()
    for role, title in groups:
        group = []
        for u in units:
            key = u.name.casefold()
            fits = not role or role in u.roles or (role == "battleline" and key in extra)
            if fits and key not in placed:
                group.append(u)
                placed.add(key)
        if group:
            out.append((title, group))
    return out


def parse_catalogue(text: str, file: str) -> tuple[Catalogue | None, list[PackError]]:
    """Parse one catalogue's YAML text; the catalogue, or what is wrong with it."""
    data, errors = read_yaml(text, file, MAX_CATALOGUE_BYTES)
    if errors:
        return None, errors
    if not isinstance(data, dict):
        return None, [PackError.at(file, "", "must be a YAML mapping with id, source, season, factions")]
    try:
        return Catalogue.model_validate(data), []
    except ValidationError as exc:
        out = []
        for err in exc.errors(include_url=False)[:20]:
            where = ".".join(str(p) if not isinstance(p, int) else f"[{p}]" for p in err["loc"])
            out.append(PackError.at(file, where.replace(".[", "["), err["msg"].removeprefix("Value error, ")))
        return None, out
