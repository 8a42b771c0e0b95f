"""Whole games written down once and played by more than one test file: each First Blood
scenario Victory Phase by Victory Phase (SCRIPTS), and a five-round game for each battleplan turn
by turn (PLAYS). The arithmetic is in the comments."""

from __future__ import annotations

from typing import Any

A, B = 0, 1
Q: list[Any] = [{}, {}, {}]  # a quiet Victory Phase: (control, Ann's part, Bo's part)

# scenario -> (phases from round 1, expected final VP, round it ends in, winner or None for a draw)
SCRIPTS: dict[str, tuple[list[list[Any]], tuple[int, int], int, int | None]] = {
    "twin-contested-zones": (
        [
            Q,
            [
                {"west-zone": A, "east-zone": B},
                {"markers_destroyed": ["b-west"]},
                {"markers_destroyed": ["a-east"]},
            ],
            [{"west-zone": A, "east-zone": B}, {}, {}],
            [{"west-zone": A, "east-zone": A}, {"markers_destroyed": ["b-east"]}, {}],
        ],
        (18, 8),
        4,
        A,
    ),
    "meeting-engagement": (
        [
            Q,
            [{"first-zone": A}, {}, {"markers_destroyed": ["marker-a"]}],
            [{"first-zone": B, "second-zone": B}, {}, {}],
        ]
        + [Q] * 5,
        (3, 13),
        8,
        B,
    ),
    "outflank": ([Q] + [[{"west-zone": A, "centre-zone": A, "east-zone": B}, {}, {}]] * 3, (18, 6), 4, A),
    "shieldwall": (
        [
            Q,
            [
                {},
                {"markers_destroyed": ["player2-centre", "player2-corner"], "regiments_destroyed": 2},
                {"markers_destroyed": ["player1-centre"], "character_slain": True},
            ],
        ]
        + [Q] * 5
        + [[{}, {}, {"regiments_destroyed": 3}]],
        (10, 8),
        8,
        A,
    ),
    "raid": (
        [Q, [{"zone-b": A, "far-centre": A, "zone-a": B}, {}, {}], [{"zone-b": A}, {}, {}]],
        (21, 8),
        3,
        A,
    ),
    "area-control": (
        [
            Q,
            [{"zone-d": A, "near-centre": A}, {}, {"markers_destroyed": ["marker-a"]}],
            [{"zone-d": A, "near-centre": A}, {}, {}],
        ],
        (26, 4),
        3,
        A,
    ),
    "broken-lines": (
        [
            Q,
            [{"marker": A}, {}, {}],
            [{"marker": A, "zone-b": A}, {}, {}],
            [{"marker": A}, {}, {}],
            [{"marker": A}, {}, {}],
        ],
        (28, 0),
        5,
        A,
    ),
    "tug-of-war": (
        [
            Q,
            [{"near-centre": A, "mid-left": A, "far-centre": B}, {}, {}],
            [{"centre": A, "far-left": A}, {}, {}],
        ],
        (22, 10),
        3,
        A,
    ),
    "tic-tac-blood": ([Q, [{"near-zone": A, "far-zone": B}, {}, {}]] + [Q] * 6, (3, 3), 8, None),
    "advanced-maneuvers": (
        [
            Q,
            [{"near-zone": A}, {"markers_destroyed": ["marker-b"]}, {}],
            [{"near-zone": A, "far-zone": A}, {}, {}],
        ]
        + [Q] * 5,
        (20, 0),
        8,
        A,
    ),
    "pincer": (
        [
            Q,
            [
                {"centre-zone": A},
                {"markers_destroyed": ["west-marker", "marker-b"], "officers_slain": 2},
                {"markers_destroyed": ["east-marker"], "character_slain": True},
            ],
        ]
        + [Q] * 6,
        (12, 7),
        8,
        A,
    ),
    "into-the-grinder": (
        [
            Q,
            [{"near-zone": A, "far-zone": A}, {}, {"markers_destroyed": ["marker-a"]}],
            [{"near-zone": A, "far-zone": A, "centre-zone": B}, {}, {}],
        ],
        (20, 6),
        3,
        A,
    ),
}


# scenario -> per round: (round-start facts, Ann's turn, Bo's turn); then expected VP and result.
PLAYS: dict[str, dict[str, Any]] = {
    "marking-territory": {
        "rounds": [
            (
                {},
                {"control": {"north-west": A, "north-east": A}},
                {"control": {"north-west": A, "north-east": A, "south-west": B}},
            )
        ]
        * 5,
        # No VP at all; tactics 2 to 1 decide.
        "vp": (0, 0),
        "result": ("minor", A, "Most battle tactics completed (2 to 1)."),
    },
    "savage-gains": {
        "rounds": [
            (
                {},
                {"control": {"attacker-border": A, "west": A}},
                {"control": {"defender-border": B, "attacker-border": A}},
            )
        ]
        * 5,
        # Ann (1 own border + 2 west) x 5 + 4 + 3 = 22; Bo 1 x 5 + 2 = 7
        "vp": (22, 7),
        "result": ("major", A, "Most victory points (22 to 7)."),
    },
    "first-blood": {
        "rounds": [
            (
                {"vantage": "centre"},
                {"control": {"south-west": A, "centre": A}},
                {"control": {"south-west": A, "centre": A, "north-east": B}},
            )
        ]
        * 5,
        # Ann 3 x 5 + 4 + 3 = 22; Bo 1 x 5 + 2 = 7
        "vp": (22, 7),
        "result": ("major", A, "Most victory points (22 to 7)."),
    },
    "power-struggle": {
        "rounds": [
            (
                {},
                {"control": {"north-west": A, "north-east": A}},
                {"control": {"north-west": A, "north-east": A, "centre": B}},
            )
        ]
        * 5,
        # Ann: round 1 only "more" (1), then held 2 (2) + more (1) x 4 = 13; + 4 + 3 = 20
        # Bo: round 1 nothing, then the centre held twice (1) x 4 = 4; + 2 = 6
        "vp": (20, 6),
        "result": ("major", A, "Most victory points (20 to 6)."),
    },
    "survival-of-the-fittest": {
        "rounds": [
            (
                {},
                {"control": {"south-west": A, "centre": A}, "predators_destroyed": 1},
                {"control": {"south-west": A, "centre": A, "north-east": B}},
            )
        ]
        + [
            (
                {},
                {"control": {"south-west": A, "centre": A}},
                {"control": {"south-west": A, "centre": A, "north-east": B}},
            )
        ]
        * 4,
        # Ann 3 x 5 + 1 predator + 4 + 3 = 23; Bo 1 x 5 + 2 = 7
        "vp": (23, 7),
        "result": ("major", A, "Most victory points (23 to 7)."),
    },
    "tectonic-interference": {
        "rounds": [
            (
                {"alpha": alpha},
                {"control": {"objective-1": A, "objective-2": A}},
                {"control": {"objective-1": A, "objective-2": A, "objective-3": B}},
            )
            for alpha in ("objective-1", "objective-2", "objective-3", "objective-1", "objective-2")
        ],
        # Ann: 3, 3, 2 (alpha is Bo's), 3, 3 = 14; + 4 + 3 = 21
        # Bo: beta 1, 1, alpha 2, 1, 1 = 6; + 2 = 8
        "vp": (21, 8),
        "result": ("major", A, "Most victory points (21 to 8)."),
    },
    "apex-predators": {
        "rounds": [
            (
                {},
                {"control": {"south-west": A, "centre": A}},
                {"control": {"south-west": A, "centre": A, "north-east": B}},
            )
        ]
        * 5,
        "vp": (22, 7),
        "result": ("major", A, "Most victory points (22 to 7)."),
    },
    "the-vice": {
        "rounds": [
            (
                {},
                {"control": {"north-west": A, "north-east": A}},
                {"control": {"north-west": A, "north-east": A, "south-west": B}},
            )
        ]
        * 3
        + [({}, {"control": {"centre": A}}, {"control": {"centre": B}})] * 2,
        # Ann 3 x 3 + 2 x 2 = 13; + 4 + 3 = 20. Bo 1 x 3 + 2 x 2 = 7; + 2 = 9
        "vp": (20, 9),
        "result": ("major", A, "Most victory points (20 to 9)."),
    },
    "tooth-and-nail": {
        "rounds": [
            (
                {},
                {"control": {"north-west": A, "north-east": A}},
                {"control": {"north-west": A, "north-east": A, "south-west": B}},
            )
        ]
        * 5,
        "vp": (22, 7),
        "result": ("major", A, "Most victory points (22 to 7)."),
    },
    "feral-foray": {
        "rounds": [
            (
                {},
                {"control": {"attacker-west": A, "defender-west": A, "attacker-centre": B}},
                {"control": {"attacker-west": A, "defender-west": A, "attacker-centre": B}},
            ),
            (
                {},
                {
                    "control": {"attacker-west": A, "defender-west": A, "attacker-centre": B},
                    "raided": "defender-west",
                },
                {"control": {"attacker-west": A, "attacker-centre": B}},
            ),
        ]
        + [
            (
                {},
                {"control": {"attacker-west": A, "attacker-centre": B}},
                {"control": {"attacker-west": A, "attacker-centre": B}},
            )
        ]
        * 3,
        # Ann: 3, 3 + 1 raid, 1, 1, 1 = 10; + 4 + 3 = 17. Bo: 1 x 5 = 5; + 2 = 7
        "vp": (17, 7),
        "result": ("major", A, "Most victory points (17 to 7)."),
    },
    "power-in-numbers": {
        "rounds": [
            (
                {},
                {"control": {"north": A, "south": A}},
                {"control": {"north": A, "south": A, "north-east": B}},
            ),
            (
                {},
                {"control": {"north": A, "south": A, "north-east": B}, "destroyed": ["north"]},
                {"control": {"south": A, "north-east": B}, "destroyed": ["north-east"]},
            ),
            ({}, {"control": {"south": A}}, {"control": {"south": A}}),
            ({}, {"control": {"south": A}}, {"control": {"south": A}}),
            ({}, {"control": {"south": A}, "destroyed": ["south"]}, {"control": {}}),
        ],
        # Ann: north held since her last turn 2; south held from round 1 to round 5: 8; + 4 + 3 = 17
        # Bo: north-east held since his last turn 2; + 2 = 4
        "vp": (17, 4),
        "result": ("major", A, "Most victory points (17 to 4)."),
    },
    "the-veins-of-ghur": {
        "rounds": [
            ({}, {"control": {}}, {"control": {}}),
            (
                {"placed": [{"objective": "vein-1", "roll": 7}]},
                {"control": {"vein-1": A}},
                {"control": {"vein-1": B}},
            ),
            (
                {"placed": [{"objective": "vein-2", "roll": 5}, {"objective": "vein-3", "roll": 9}]},
                {"control": {"vein-1": B, "vein-2": A}},
                {"control": {"vein-1": B, "vein-2": A, "vein-3": B}},
            ),
            (
                {},
                {"control": {"vein-1": A, "vein-2": A, "vein-3": B}},
                {"control": {"vein-1": A, "vein-2": A, "vein-3": B}},
            ),
            ({}, {"control": {"vein-1": A}}, {"control": {"vein-1": A}}),
        ],
        # Ann: 2 + 3 + 8 + 5 = 18; + 4 + 3 = 25. Bo: 2 + 6 + 4 + 0 = 12; + 2 = 14
        "vp": (25, 14),
        "result": ("major", A, "Most victory points (25 to 14)."),
    },
}
