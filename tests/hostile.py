"""Script in every text a player can type: one payload per field, so a page or a print that
showed one unescaped is caught by name. Shared by the server-side check of pages and prints
(tests/web/test_hostile_output.py) and the browser's (tests/browser/test_hostile_text.py)."""

from __future__ import annotations

PAYLOADS = {
    "player 1": "<img src=x onerror=alert(1)>",
    "player 2": '"><svg onload=alert(2)>',
    "roster name": "</title><script>alert(3)</script>",
    "faction": "<iframe src=javascript:alert(4)>",
    "unit": "<b onmouseover=alert(5)>Knights</b>",
    "keyword": "<A HREF=JAVASCRIPT:ALERT(6)>HERO</A>",  # keywords are kept in capitals
    "trait": "{{7*7}}<body onload=alert(7)>",
    "notes": "<style>*{display:none}</style><input autofocus onfocus=alert(8)>",
    "officer": "<details open ontoggle=alert(9)>",
    "retinue": "<video><source onerror=alert(10)>",
    "piece": "<marquee onstart=alert(11)>",
    "piece notes": "'><img src=/ onerror=alert(12)>",
    "set": "<svg><script>alert(13)</script>",
    "roll": "javascript:alert(14)//<img src=x onerror=alert(14)>",
}


def pitched_battle_roster() -> dict:
    """A Pitched Battles roster with a payload in every field a player types, for the roster API."""
    return {
        "pack": "aos-ghb-2021",
        "name": PAYLOADS["roster name"],
        "points_limit": 2000,
        "faction": PAYLOADS["faction"],
        "entries": [
            {
                "name": PAYLOADS["unit"],
                "points": 200,
                "roles": ["Leader"],
                "keywords": ["WIZARD", PAYLOADS["keyword"]],
                "general": True,
                "command_trait": PAYLOADS["trait"],
                "notes": PAYLOADS["notes"],
            }
        ],
    }


def first_blood_roster() -> dict:
    """A First Blood roster whose officer and retinue have payloads for names of their own."""
    return {
        "pack": "conquest-first-blood",
        "name": PAYLOADS["roster name"],
        "entries": [
            {
                "name": PAYLOADS["unit"],
                "kind": "regiment",
                "type": "cavalry",
                "points": 165,
                "models": 3,
                "officers": [{"name": PAYLOADS["officer"], "points": 40}],
                "retinue": [{"name": PAYLOADS["retinue"], "points": 20}],
            }
        ],
    }
