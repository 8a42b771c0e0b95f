"""Signed values (a session's CSRF token, the session cookie) without a wasted zlib pass.

itsdangerous tries zlib on every payload it signs and keeps whichever is shorter. A CSRF key,
or a session holding one, is some fifty characters of hex that zlib never shortens, and each try
set up a fresh compressor (a 256 KB window cleared): a tenth of a first visit's game page. A
payload this short is signed plain, the very bytes itsdangerous writes when zlib loses, which
its own ``loads`` reads; a longer one is signed as itsdangerous signs it.
"""

from __future__ import annotations

from typing import Any

from itsdangerous import URLSafeTimedSerializer
from itsdangerous.encoding import base64_encode
from itsdangerous.serializer import Serializer

# Below this many bytes of JSON zlib's header and checksum alone cost more than it could save.
SHORT = 128


class ShortPlain(URLSafeTimedSerializer):
    """``URLSafeTimedSerializer`` that signs a short payload without trying zlib first."""

    def dump_payload(self, obj: Any) -> bytes:
        """The payload as itsdangerous writes it: base64 of the JSON, compressed only when long."""
        json = Serializer.dump_payload(self, obj)
        if len(json) >= SHORT:
            return super().dump_payload(obj)
        return base64_encode(json)
