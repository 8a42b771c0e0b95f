"""The referee refuses what Triumph & Treachery refuses (issue 23): worked examples, by hand.

Seed 003 (The Old World) and seed 000 (Convergence of Fate). Three players unless a test says
otherwise: Ann (0), Bo (1), Cy (2); each refusal is checked by its rule id, and the sentences
by what they name.
"""

from __future__ import annotations

import pytest

from app.rules.systems.treachery.allowed import open_entries
from tests.unit.treachery_play import ANN, BO, CY, DI, Treachery

TOW = "tow-triumph-treachery"
AOS = "aos-conquest-unbound"


@pytest.fixture
def tow(packs):
    return packs[TOW]


def altar(pack, players: int = 3) -> Treachery:
    return Treachery(pack, "altar-of-the-gods", players)


def buy(player: int, ploy: str, r: int = 1) -> dict:
    return {"type": "buy", "round": r, "player": player, "ploy": ploy}


def pick(player: int, phase: str, enemy: int, r: int = 1) -> dict:
    return {"type": "enemy", "round": r, "player": player, "phase": phase, "enemy": enemy}


def play(player: int, ploy: str, r: int = 1) -> dict:
    return {"type": "play", "round": r, "player": player, "ploy": ploy}


def deal(giver: int, to: int, r: int = 1, **gives: object) -> dict:
    return {"type": "deal", "round": r, "from": giver, "to": to, **gives}


def order(rolls: list[list[int]], r: int = 1, **extra: object) -> dict:
    return {"type": "roll_off", "round": r, "purpose": "order", "rolls": rolls, **extra}


# --- item 2: ploys are bought before the round's turn-order roll-off -----------------------------
@pytest.mark.parametrize(
    ("before", "rule"),
    [
        ([], None),
        # The roll-off that decides who goes first ends buying, a tied throw too.
        ([order([[ANN, 6], [BO, 2], [CY, 1]], next=ANN)], "buy-before-roll-off"),
        ([order([[ANN, 6], [BO, 6], [CY, 1]])], "buy-before-roll-off"),
        # Where no roll-off is recorded, the round's first enemy pick, play or turn ends it.
        ([pick(ANN, "charge", BO)], "buy-before-roll-off"),
        ([play(ANN, "caltrops")], "buy-before-roll-off"),
        ([{"type": "turn", "round": 1, "player": CY}], "round"),
        # A deal, or a roll-off for something else, leaves buying open.
        ([deal(CY, ANN, cp=2)], None),
        ([{"type": "roll_off", "round": 1, "purpose": "deployment", "rolls": [[ANN, 3], [BO, 4]]}], None),
    ],
    ids=["nothing", "roll-off", "tied-roll-off", "enemy-pick", "play", "turn", "deal", "other-roll-off"],
)
def test_ploys_are_bought_before_the_roll_off_for_the_first_turn(tow, before, rule):
    game = altar(tow)
    game.ok({"type": "battle_round", "round": 1}, buy(ANN, "caltrops"), *before)
    assert game.rule(buy(BO, "sabotage")) == rule


def test_buying_closed_says_why_in_one_sentence_and_the_seat_is_offered_no_buy(tow):
    game = altar(tow)
    game.ok({"type": "battle_round", "round": 1})
    assert open_entries(game.state, BO)["buy"]["open"] is True
    game.ok(order([[ANN, 6], [BO, 2], [CY, 1]], next=CY))
    assert game.send(buy(BO, "sabotage")) == (
        "round: ploys are bought before the roll-off for round 1's first turn, which is recorded."
    )
    offered = open_entries(game.state, BO)["buy"]
    assert offered["open"] is False and offered["why"].startswith("Ploys are bought before the roll-off")


# --- item 3: one enemy pick per phase, unless Allies of Convenience sends the pick back ---------
def _charge_on_bo(pack, players: int = 3) -> Treachery:
    """Round 1: Bo and Cy hold Allies of Convenience, Di (if seated) too, Ann Misheard Orders;
    Ann's turn, charge phase, Bo is her enemy."""
    game = altar(pack, players)
    game.ok(
        {"type": "battle_round", "round": 1},
        buy(ANN, "misheard-orders"),
        buy(BO, "allies-of-convenience"),
        buy(CY, "allies-of-convenience"),
    )
    if players > 3:
        game.ok(buy(DI, "allies-of-convenience"))
    game.ok(pick(ANN, "charge", BO))
    return game


@pytest.mark.parametrize(
    ("between", "again", "rule"),
    [
        ([], pick(ANN, "charge", CY), "one-pick-per-phase"),
        ([], pick(ANN, "shooting", CY), None),  # another phase: a pick of its own
        ([play(BO, "allies-of-convenience")], pick(ANN, "charge", CY), None),
        ([play(BO, "allies-of-convenience")], pick(ANN, "charge", BO), "allies-of-convenience"),
        # Misheard Orders cancels the Allies of Convenience: the pick stands.
        (
            [play(BO, "allies-of-convenience"), play(ANN, "misheard-orders")],
            pick(ANN, "charge", CY),
            "one-pick-per-phase",
        ),
        # Once the phase's pick is past (a later phase picked), its Allies no longer send it back.
        (
            [play(BO, "allies-of-convenience"), pick(ANN, "shooting", CY)],
            pick(ANN, "charge", CY),
            "one-pick-per-phase",
        ),
    ],
    ids=["again", "other-phase", "allies", "allies-same-enemy", "allies-cancelled", "phase-past"],
)
def test_a_second_enemy_pick_for_a_phase_needs_allies_of_convenience(tow, between, again, rule):
    game = _charge_on_bo(tow)
    game.ok(*between)
    assert game.rule(again) == rule


def test_after_two_allies_neither_may_be_picked_again_that_phase(tow):
    game = _charge_on_bo(tow, players=4)
    game.ok(play(BO, "allies-of-convenience"), pick(ANN, "charge", CY), play(CY, "allies-of-convenience"))
    for barred in (BO, CY):
        assert game.rule(pick(ANN, "charge", barred)) == "allies-of-convenience"
    assert game.rule(pick(ANN, "charge", DI)) is None
    sentence = game.send(pick(ANN, "charge", DI))
    assert sentence is not None and sentence.startswith("phase: Ann has already picked Di as the enemy")


def test_a_refused_re_pick_opens_no_new_bonus_roll_and_an_allowed_one_does(tow):
    game = _charge_on_bo(tow)
    game.ok({"type": "bonus_ploy", "round": 1, "player": CY, "roll": 6, "ploy": "caltrops"})
    assert game.rule(pick(ANN, "charge", CY)) == "one-pick-per-phase"
    assert (
        game.rule({"type": "bonus_ploy", "round": 1, "player": CY, "roll": 6, "ploy": "sabotage"})
        == "bonus-once"
    )
    # Bo plays Allies of Convenience: Ann picks Cy instead, and Bo, neutral now, rolls for a bonus.
    game.ok(play(BO, "allies-of-convenience"), pick(ANN, "charge", CY))
    assert game.rule({"type": "bonus_ploy", "round": 1, "player": BO, "roll": 6, "ploy": "sabotage"}) is None
    assert [p["enemy"] for p in game.summary()["picks"]] == [BO, CY]


def test_the_screens_offer_the_phase_again_only_after_allies(tow):
    game = _charge_on_bo(tow)
    offered = open_entries(game.state, None)["enemy"]
    assert offered["phases"]["charge"].startswith(
        "Ann has already picked Bo as the enemy for the Charge phase"
    )
    assert offered["phases"]["shooting"] is None and offered["again"] is None
    game.ok(play(BO, "allies-of-convenience"))
    offered = open_entries(game.state, None)["enemy"]
    assert offered["phases"]["charge"] is None and offered["again"] == "charge" and offered["barred"] == [BO]


# --- item 4: Allies of Convenience is played by the enemy just picked ----------------------------
@pytest.mark.parametrize(
    ("before", "player", "rule"),
    [
        ([pick(ANN, "charge", BO)], BO, None),
        ([pick(ANN, "charge", BO)], CY, "enemy-only"),  # neutral
        ([pick(ANN, "charge", BO)], ANN, "enemy-only"),  # the active player
        ([], BO, "enemy-only"),  # nobody picked as the enemy
        (
            [pick(ANN, "charge", BO), {"type": "turn", "round": 1, "player": ANN}],
            BO,
            "enemy-only",
        ),  # turn over
        # Picked again after Bo's Allies: Cy is the enemy now; Bo has spent hers.
        ([pick(ANN, "charge", BO), play(BO, "allies-of-convenience"), pick(ANN, "charge", CY)], CY, None),
    ],
    ids=["enemy", "neutral", "active", "no-pick", "turn-over", "new-enemy"],
)
def test_allies_of_convenience_only_from_the_enemy_just_picked(tow, before, player, rule):
    game = altar(tow)
    game.ok(
        {"type": "battle_round", "round": 1},
        *(buy(p, "allies-of-convenience") for p in (ANN, BO, CY)),
        *before,
    )
    assert game.rule(play(player, "allies-of-convenience")) == rule


# --- item 5: ploys for neutral players only; a ploy's `who` ---------------------------------------
@pytest.mark.parametrize(
    ("player", "ploy", "rule"),
    [
        (CY, "ambushing-fire", None),  # neutral
        (ANN, "ambushing-fire", "neutral-only"),  # taking the turn
        (BO, "ambushing-fire", "neutral-only"),  # the enemy
        (CY, "sorcerous-aid", None),
        (BO, "sorcerous-aid", "neutral-only"),
        (BO, "sabotage", None),  # any player
        (CY, "surprise-attack", "active-only"),  # "at the start of your movement phase"
        (ANN, "surprise-attack", None),
    ],
)
def test_who_may_play_a_ploy_in_an_enemy_pick(tow, player, ploy, rule):
    game = altar(tow)
    game.ok({"type": "battle_round", "round": 1}, buy(player, ploy), pick(ANN, "shooting", BO))
    assert game.rule(play(player, ploy)) == rule


def test_a_neutral_ploy_before_any_pick_is_refused_only_to_the_player_whose_turn_it_is(tow):
    game = altar(tow)
    game.ok(
        {"type": "battle_round", "round": 1},
        buy(ANN, "hidden-agents"),
        buy(CY, "hidden-agents"),
        order([[ANN, 6], [BO, 2], [CY, 1]], next=ANN),
    )
    assert game.send(play(ANN, "hidden-agents")) == (
        "ploy: Hidden Agents is for neutral players, and Ann is taking the turn."
    )
    assert game.rule(play(CY, "hidden-agents")) is None


def test_the_hand_says_which_ploys_may_be_played_now(tow):
    game = altar(tow)
    game.ok(
        {"type": "battle_round", "round": 1},
        buy(BO, "ambushing-fire"),
        buy(BO, "caltrops"),
        pick(ANN, "shooting", BO),
    )
    hand = open_entries(game.state, BO)["hand"]
    assert hand["caltrops"] is None
    assert hand["ambushing-fire"] == "Ambushing Fire is for neutral players, and Bo is the enemy this phase."
    # Another seat's answer holds none of Bo's hand (only the pack's list, for Cy's bonus roll).
    cy = open_entries(game.state, CY)
    assert cy["hand"] == {} and set(cy["bonus"]["ploys"].values()) == {None}


# --- item 6: turn order ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("before", "player", "rule"),
    [
        ([order([[ANN, 6], [BO, 2], [CY, 1]], next=CY)], ANN, "turn-order"),
        ([order([[ANN, 6], [BO, 2], [CY, 1]], next=CY)], CY, None),
        ([order([[ANN, 6], [BO, 6], [CY, 1]])], CY, None),  # tied: nobody named yet
        ([], BO, None),  # no roll-off: any player yet to play
        ([pick(ANN, "charge", BO)], BO, None),  # an enemy pick names no next player
        # After Cy's turn the roll-off's choice is spent: the next roll-off (or anyone) decides.
        (
            [order([[ANN, 6], [BO, 2], [CY, 1]], next=CY), {"type": "turn", "round": 1, "player": CY}],
            BO,
            None,
        ),
    ],
    ids=["other", "named", "tied", "no-roll-off", "enemy-pick", "spent"],
)
def test_a_turn_follows_the_roll_off_that_named_the_next_player(tow, before, player, rule):
    game = altar(tow)
    game.ok({"type": "battle_round", "round": 1}, *before)
    assert game.rule({"type": "turn", "round": 1, "player": player}) == rule


# --- item 7: deals at the start of a turn -------------------------------------------------------
@pytest.mark.parametrize(
    ("before", "rule"),
    [
        ([], None),
        ([order([[ANN, 6], [BO, 2], [CY, 1]], next=ANN)], None),  # the roll-off comes first
        ([pick(ANN, "movement", BO)], "deal-start-of-turn"),
        ([play(CY, "caltrops")], "deal-start-of-turn"),
        ([pick(ANN, "movement", BO), {"type": "turn", "round": 1, "player": ANN}], None),  # Bo's turn starts
        ([{"type": "destroyed", "round": 1, "by": BO, "owner": CY, "unit": "Knights", "points": 200}], None),
    ],
    ids=["start", "after-roll-off", "after-pick", "after-play", "next-turn", "after-destroyed"],
)
def test_deals_only_before_the_turns_first_enemy_pick_or_play(tow, before, rule):
    game = altar(tow)
    game.ok({"type": "battle_round", "round": 1}, buy(CY, "caltrops"), *before)
    assert game.rule(deal(BO, ANN, cp=3, note="Leave my flank alone")) == rule


# --- item 8: whose deal it is ---------------------------------------------------------------------
def test_a_deal_is_its_givers_or_the_tables_and_a_ploy_deal_its_givers_secret(tow):
    game = altar(tow)
    system = game.system
    points = {"type": "deal", "round": 1, "from": BO, "to": ANN, "cp": 3}
    assert system.holder(points) == BO and not system.secret(points) and system.table_may_record(points)
    ploy = {**points, "ploy": "caltrops"}
    assert system.holder(ploy) == BO and system.secret(ploy) and not system.table_may_record(ploy)


# --- item 9: the end's tie_break follows the ranking roll-offs -----------------------------------
def _ended_tied(pack, vp: tuple[int, int, int]) -> Treachery:
    game = altar(pack)
    for player, points in zip((ANN, BO, CY), vp, strict=True):
        if points:
            game.ok(
                {
                    "type": "destroyed",
                    "round": 1,
                    "by": player,
                    "owner": (player + 1) % 3,
                    "unit": "x",
                    "points": points * 100,
                }
            )
    for r in range(1, 5):
        for player in (ANN, BO, CY):
            game.ok({"type": "turn", "round": r, "player": player})
    return game


def ranking(rolls: list[list[int]]) -> dict:
    return {"type": "roll_off", "round": 4, "purpose": "ranking", "rolls": rolls}


@pytest.mark.parametrize(
    ("vp", "rolls", "tie_break", "rule"),
    [
        # Ann and Cy tie on 5 VP; Cy wins their roll-off.
        ((5, 8, 5), [[[ANN, 3], [CY, 5]]], [CY, ANN], None),
        ((5, 8, 5), [[[ANN, 3], [CY, 5]]], [ANN, CY], "tie-break-roll-off"),
        # Rolled off twice: the latest counts.
        ((5, 8, 5), [[[ANN, 3], [CY, 5]], [[ANN, 6], [CY, 1]]], [ANN, CY], None),
        ((5, 8, 5), [[[ANN, 3], [CY, 5]], [[ANN, 6], [CY, 1]]], [CY, ANN], "tie-break-roll-off"),
        # No roll-off recorded: the order is the table's word.
        ((5, 8, 5), [], [ANN, CY], None),
        # A roll-off between players not tied at the end places nobody.
        ((5, 8, 5), [[[ANN, 6], [BO, 1]]], [CY, ANN], None),
        # All three tie: Ann and Bo tie the first throw, Bo wins the re-throw, so Bo is first;
        # then Ann beats Cy for second.
        (
            (0, 0, 0),
            [[[ANN, 6], [BO, 6], [CY, 2]], [[ANN, 1], [BO, 4]], [[ANN, 5], [CY, 3]]],
            [BO, ANN, CY],
            None,
        ),
        (
            (0, 0, 0),
            [[[ANN, 6], [BO, 6], [CY, 2]], [[ANN, 1], [BO, 4]], [[ANN, 5], [CY, 3]]],
            [ANN, BO, CY],
            "tie-break-roll-off",
        ),
        (
            (0, 0, 0),
            [[[ANN, 6], [BO, 6], [CY, 2]], [[ANN, 1], [BO, 4]], [[ANN, 5], [CY, 3]]],
            [BO, CY, ANN],
            "tie-break-roll-off",
        ),
    ],
    ids=[
        "won",
        "contradicted",
        "latest",
        "latest-contradicted",
        "none",
        "not-tied",
        "three",
        "three-a",
        "three-c",
    ],
)
def test_the_tie_break_follows_the_ranking_roll_offs(tow, vp, rolls, tie_break, rule):
    game = _ended_tied(tow, vp)
    game.ok(*(ranking(r) for r in rolls))
    assert game.rule({"type": "end", "tie_break": tie_break}) == rule


def test_a_contradicting_tie_break_names_the_roll_off_and_the_end_form_is_offered_its_order(tow):
    game = _ended_tied(tow, (5, 8, 5))
    game.ok(ranking([[ANN, 3], [CY, 5]]))
    assert game.send({"type": "end", "tie_break": [ANN, CY]}) == (
        "tie_break: Cy won the ranking roll-off against Ann, so Cy comes before Ann."
    )
    assert open_entries(game.state, None)["tie_order"] == [CY, ANN]


# --- item 10: a ploy changes hands in a deal -------------------------------------------------------
def _gift(pack) -> Treachery:
    """Round 1's purchases: Ann holds Caltrops, Cy Caltrops and Sabotage; Bo Opportune Fury."""
    game = altar(pack)
    game.ok(
        {"type": "battle_round", "round": 1},
        buy(ANN, "caltrops"),
        buy(CY, "caltrops"),
        buy(CY, "sabotage"),
        buy(BO, "opportune-fury"),
    )
    return game


def test_a_ploy_given_in_a_deal_is_the_receivers_and_named_only_to_the_two(tow):
    game = _gift(tow)
    game.ok(deal(ANN, BO, ploy="caltrops", cp=2, note="Charge Cy, not me"))
    assert game.summary(BO)["players"][BO]["ploys"] == ["opportune-fury", "caltrops"]
    assert game.summary(ANN)["players"][ANN]["ploys"] == []
    assert [p["ploys_held"] for p in game.summary()["players"]] == [0, 2, 2]
    assert [p["cp"] for p in game.summary()["players"]] == [46, 51, 46]
    for seat in (ANN, BO):
        shown = game.summary(seat)["deals"][0]
        assert (shown["ploy"], shown["ploy_name"], shown["gives_ploy"]) == ("caltrops", "Caltrops", True)
    for seat in (CY, None):
        hidden = game.summary(seat)["deals"][0]
        assert hidden["gives_ploy"] is True and "ploy" not in hidden and "ploy_name" not in hidden
    event = game.log[-1]
    assert game.system.visible_event(event, ANN) == event and game.system.visible_event(event, BO) == event
    seen = game.system.visible_event(event, CY)
    assert "ploy" not in seen and seen["hidden"] is True and seen["cp"] == 2
    # Bo's seat lists it among its gains; the public gains say only that Bo gained a ploy by a deal.
    assert game.summary(BO)["gained"][-1] | {"event": None} == {
        "event": None,
        "round": 1,
        "ploy": "caltrops",
        "how": "deal",
        "cost": 0,
    }
    assert game.summary()["gains"][-1]["how"] == "deal" and "ploy" not in game.summary()["gains"][-1]
    # Bo may play it; then everyone sees it.
    game.ok(play(BO, "caltrops"))
    assert game.summary()["plays"][0]["ploy"] == "caltrops"


@pytest.mark.parametrize(
    ("before", "gift", "rule"),
    [
        ([], deal(ANN, BO, ploy="caltrops"), None),
        ([], deal(ANN, BO, ploy="sabotage"), "ploy"),  # Ann holds no Sabotage
        ([], deal(ANN, CY, ploy="caltrops"), "held-twice"),  # Cy holds Caltrops already
        # Cy's bonus ploy makes 3, the most held; Bo's turn over, Ann's starts with deals open.
        (
            [
                pick(BO, "movement", ANN),
                {"type": "bonus_ploy", "round": 1, "player": CY, "roll": 6, "ploy": "behind-you"},
                {"type": "turn", "round": 1, "player": BO},
            ],
            deal(BO, CY, ploy="opportune-fury"),
            "max-held",
        ),
        # Bo gains Caltrops from Ann, throws it away, and is given Cy's in the same turn.
        (
            [deal(ANN, BO, ploy="caltrops"), {"type": "discard", "player": BO, "ploy": "caltrops"}],
            deal(CY, BO, ploy="caltrops"),
            "same-ploy",
        ),
        ([], deal(ANN, BO, ploy="caltrops", cp=60), "cp"),
    ],
    ids=["given", "not-held", "held-twice", "max-held", "same-ploy", "cp"],
)
def test_a_ploy_given_keeps_the_holding_rules(tow, before, gift, rule):
    game = _gift(tow)
    game.ok(*before)
    assert game.rule(gift) == rule


def test_a_ploy_given_is_refused_with_the_rules_name(tow):
    game = _gift(tow)
    assert game.send(deal(ANN, CY, ploy="caltrops")) == (
        "ploy: Cy already holds Caltrops; nobody holds two of the same ploy."
    )
    assert game.send(deal(ANN, BO, ploy="sabotage")) == "ploy: Ann holds no Sabotage to give."


def test_the_seat_is_offered_its_own_ploys_to_give_and_the_table_none(tow):
    game = _gift(tow)
    assert open_entries(game.state, ANN)["deal"]["ploys"] == {"caltrops": "Caltrops"}
    assert open_entries(game.state, ANN)["deal"]["givers"] == [ANN]
    table = open_entries(game.state, None)["deal"]
    assert table["ploys"] == {} and table["givers"] == [ANN, BO, CY] and table["open"] is True


# --- item 11: Convergence of Fate's contingents come out with the reinforcements -------------------
@pytest.mark.parametrize(
    ("events", "shown"),
    [
        ([], False),
        ([{"type": "turn", "round": 1, "player": p} for p in (ANN, BO, CY)], False),
        (
            [
                *({"type": "turn", "round": 1, "player": p} for p in (ANN, BO, CY)),
                pick(BO, "movement", ANN, 2),
            ],
            False,
        ),
        # An enemy picked for a phase after movement in Bo's second turn: the reinforcements are down.
        (
            [
                *({"type": "turn", "round": 1, "player": p} for p in (ANN, BO, CY)),
                pick(BO, "shooting", ANN, 2),
            ],
            True,
        ),
        (
            [
                *({"type": "turn", "round": 1, "player": p} for p in (ANN, BO, CY)),
                {"type": "turn", "round": 2, "player": BO},
            ],
            True,
        ),
        # Ann's second turn is over, not Bo's: Bo's stay hidden.
        (
            [
                *({"type": "turn", "round": 1, "player": p} for p in (ANN, BO, CY)),
                {"type": "turn", "round": 2, "player": ANN},
            ],
            False,
        ),
    ],
    ids=["start", "round-1", "movement", "after-movement", "turn-over", "another-turn"],
)
def test_contingents_are_shown_to_everyone_once_the_reinforcements_arrive(packs, events, shown):
    game = Treachery(packs[AOS], "convergence-of-fate")
    game.ok(
        {
            "type": "contingents",
            "player": BO,
            "vanguard": ["Liberators", "Prosecutors"],
            "reinforcements": ["Lord-Celestant"],
        }
    )
    split = game.log[-1]
    game.ok(*events)
    seen = game.summary(ANN)["players"][BO]
    assert ("contingent_units" in seen) is shown
    if shown:
        assert seen["contingent_units"] == {
            "vanguard": ["Liberators", "Prosecutors"],
            "reinforcements": ["Lord-Celestant"],
        }
    assert (game.system.visible_event(split, None, game.state) == split) is shown


def test_every_players_contingents_are_shown_at_the_end(packs):
    game = Treachery(packs[AOS], "convergence-of-fate")
    game.ok({"type": "contingents", "player": CY, "vanguard": 3, "reinforcements": 2})
    for r in range(1, 5):
        for player in (ANN, BO, CY):
            game.ok({"type": "turn", "round": r, "player": player})
    assert game.summary()["players"][CY]["contingent_units"] == {"vanguard": 3, "reinforcements": 2}


# --- item 13: the readings the seeds leave open are written down, with why ------------------------
@pytest.mark.parametrize(
    ("pack_id", "scenario", "rule_id", "words"),
    [
        (TOW, None, "start-of-round-ploys", "each counts as neither and\nmay buy up to 2"),
        (TOW, None, "ploy-restrictions", "is read as the same ploy"),
        (TOW, "relic-of-power", "relic", "read as the battle round's number"),
        (AOS, "the-relief-force", "tunnel", "a second HERO is not one of\nthe 2 others"),
        (AOS, "convergence-of-fate", "monolith", "the battle is a draw"),
        (AOS, "the-relief-force", "calling-time", "may call time before round 5"),
    ],
    ids=["all-tied", "type-of-ploy", "relic", "second-hero", "nobody-closest", "calling-time"],
)
def test_each_open_reading_is_in_the_pack_and_the_docs_with_why(packs, pack_id, scenario, rule_id, words):
    from tests.conftest import ROOT

    pack = packs[pack_id]
    entries = pack.treachery.rules if scenario is None else pack.scenario(scenario).rules
    rule = next(r for r in entries if r.id == rule_id)
    assert rule.reading is not None and " ".join(words.split()) in " ".join(rule.reading.split())
    readings = (ROOT / "docs" / "rulepacks.md").read_text().split("### Readings Muster takes")[1]
    row = next(line for line in readings.splitlines() if line.startswith(f"| {rule.name}"))
    assert row.count("|") == 4 and all(cell.strip() for cell in row.strip("|").split("|"))
