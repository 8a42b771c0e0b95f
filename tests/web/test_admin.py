"""The club admin: password, rate limit, deleting and archiving games, rulepacks, backups."""

from __future__ import annotations

import sqlite3
from io import BytesIO
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.setups import new_game
from tests.web.conftest import CLUB_PASSWORD, Api, csrf_token, login, soup

ROOT = Path(__file__).resolve().parents[2]


def test_admin_is_off_without_a_password(client: FlaskClient) -> None:
    page = client.get("/admin")
    assert "MUSTER_ADMIN_PASSWORD" in page.text
    assert client.post("/admin/archive", data={"csrf_token": "x"}).status_code in (400, 403)


def test_wrong_password_is_refused_and_the_sixth_try_is_rate_limited(club: Flask) -> None:
    client = club.test_client()
    for _ in range(5):
        response = login(client, "guess")
        assert response.status_code == 403
        assert "not the admin password" in response.text
    response = login(client, CLUB_PASSWORD)  # even the right one, until the window passes
    assert response.status_code == 429
    assert "Too many wrong passwords" in response.text
    # Another address is not locked out by the first one's guesses.
    other = club.test_client()
    response = other.post(
        "/admin/login",
        data={"csrf_token": csrf_token(other, "/admin"), "password": CLUB_PASSWORD},
        environ_base={"REMOTE_ADDR": "10.0.0.9"},
    )
    assert response.status_code == 303


def test_admin_actions_need_the_login(club: Flask) -> None:
    client = club.test_client()
    game = new_game(client)
    token = csrf_token(client, "/admin")
    for path in ("/admin/archive", f"/admin/games/{game['id']}/delete", "/admin/packs/aos-ghb-2021/remove"):
        response = client.post(path, data={"csrf_token": token})
        assert response.status_code == 403, path
        assert "admin password" in response.text
    assert client.get("/admin/backup.sqlite").status_code == 403
    assert client.get(f"/games/{game['id']}").status_code == 200


def test_admin_forms_need_csrf(admin: FlaskClient) -> None:
    assert admin.post("/admin/archive").status_code == 400


def test_delete_a_game_and_everything_recorded_for_it(club: Flask, admin: FlaskClient) -> None:
    game = new_game(admin)
    Api(admin, game).ok({"type": "battle_round", "round": 1, "first": 0})
    keep = new_game(admin)
    response = admin.post(
        f"/admin/games/{game['id']}/delete", data={"csrf_token": csrf_token(admin, "/admin")}
    )
    assert response.status_code == 303
    assert admin.get(f"/games/{game['id']}").status_code == 404
    assert admin.get(f"/games/{keep['id']}").status_code == 200
    db = sqlite3.connect(club.config["DATABASE"])
    assert db.execute("SELECT count(*) FROM events WHERE game_id = ?", [game["id"]]).fetchone()[0] == 0
    again = admin.post(f"/admin/games/{game['id']}/delete", data={"csrf_token": csrf_token(admin, "/admin")})
    assert again.status_code == 404


def test_archiving_clears_the_home_screen_but_links_still_work(admin: FlaskClient) -> None:
    game = new_game(admin)
    assert game["id"] in admin.get("/").text
    admin.post("/admin/archive", data={"csrf_token": csrf_token(admin, "/admin")})
    assert game["id"] not in admin.get("/").text
    assert admin.get(f"/games/{game['id']}").status_code == 200
    assert "archived" in admin.get("/admin").text


def _upload(admin: FlaskClient, content: bytes, name: str = "pack.yaml"):
    return admin.post(
        "/admin/packs",
        data={"csrf_token": csrf_token(admin, "/admin"), "pack": (BytesIO(content), name)},
        content_type="multipart/form-data",
    )


def _small_pack(pack_id: str = "club-pack") -> bytes:
    text = (ROOT / "rulepacks" / "aos-ghb-2021.yaml").read_text()
    return (
        text.replace("id: aos-ghb-2021", f"id: {pack_id}", 1)
        .replace("name: ", "name: Club copy of ", 1)
        .encode()
    )


def test_install_a_pack_then_remove_it(club: Flask, admin: FlaskClient) -> None:
    response = _upload(admin, _small_pack())
    assert response.status_code == 303
    assert (Path(club.config["RULEPACKS"]) / "club-pack.yaml").is_file()
    assert admin.get("/packs/club-pack").status_code == 200
    response = admin.post("/admin/packs/club-pack/remove", data={"csrf_token": csrf_token(admin, "/admin")})
    assert response.status_code == 303
    assert admin.get("/packs/club-pack").status_code == 404


def test_a_game_whose_pack_was_removed_says_so(admin: FlaskClient) -> None:
    game = new_game(admin)
    admin.post("/admin/packs/aos-ghb-2021/remove", data={"csrf_token": csrf_token(admin, "/admin")})
    assert "not installed" in admin.get("/").text
    response = admin.get(f"/games/{game['id']}")
    assert response.status_code == 409
    assert "aos-ghb-2021" in response.text


@pytest.mark.parametrize(
    ("content", "name", "says"),
    [
        (b"id: [unclosed", "broken.yaml", "YAML"),
        (b"id: club\nname: Club\n", "short.yaml", "game"),
        (b"\xff\xfe\x00binary", "binary.yaml", "UTF-8"),
        (
            b"a: &a [x, x, x, x, x, x, x, x, x, x]\n"
            + b"".join(
                f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, "
                f"*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, "
                f"*{chr(97 + i)}, *{chr(97 + i)}]\n".encode()
                for i in range(8)
            ),
            "bomb.yaml",
            "aliases",
        ),
        (b"!!python/object/apply:os.system ['touch /tmp/pwned']\n", "hostile.yaml", "YAML"),
        (_small_pack("../../etc/evil"), "path.yaml", "id"),
    ],
)
def test_bad_packs_are_refused_with_their_errors(
    club: Flask, admin: FlaskClient, content: bytes, name: str, says: str
) -> None:
    before = sorted(p.name for p in Path(club.config["RULEPACKS"]).iterdir())
    response = _upload(admin, content, name)
    assert response.status_code == 422
    alert = soup(response).select_one("#error")
    assert alert is not None and says in alert.text
    assert sorted(p.name for p in Path(club.config["RULEPACKS"]).iterdir()) == before
    assert not Path("/tmp/pwned").exists()


def test_an_oversized_pack_is_refused(admin: FlaskClient) -> None:
    response = _upload(admin, b"# padding\n" * 40_000)
    assert response.status_code == 413
    assert "too large" in response.text


def test_backup_download_is_a_sqlite_file_with_every_game(tmp_path: Path, admin: FlaskClient) -> None:
    game = new_game(admin)
    Api(admin, game).ok({"type": "battle_round", "round": 1, "first": 0})
    response = admin.get("/admin/backup.sqlite")
    assert response.status_code == 200
    assert response.data[:16] == b"SQLite format 3\x00"
    assert "attachment" in response.headers["Content-Disposition"]
    copy = tmp_path / "downloaded.sqlite"
    copy.write_bytes(response.data)
    db = sqlite3.connect(copy)
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert db.execute("SELECT count(*) FROM events WHERE game_id = ?", [game["id"]]).fetchone()[0] == 1
