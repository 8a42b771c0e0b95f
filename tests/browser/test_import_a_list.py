"""Paste a list from another app on a phone, fix the one line Muster could not read, save."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

# A Warscroll Builder list as a player might paste it, with one unit typed by hand wrongly.
PASTED = """\
Allegiance: Seraphon
- Constellation: Koatl's Claw
- Grand Strategy: Beast Master

Leaders
Saurus Oldblood on Carnosaur (300)
- General
- Command Trait: Old and Grizzled

Battleline
10 x Saurus Warriors (105)
20 x Saurus Warriors (210)
- Reinforced x 1
Saurus Knights 120 points

Total: 735 / 1000
"""


def test_paste_a_list_fix_a_line_and_save(page: Page, live_server: str, shot) -> None:
    page.goto(live_server + "/rosters")
    page.get_by_role("link", name="Import a list from another app").click()
    page.get_by_label("The list as text").fill(PASTED)
    page.get_by_role("button", name="Read the list").click()

    # The line with points that did not read is shown, highlighted, with its number.
    unread = page.locator(".unread")
    expect(unread).to_have_count(1)
    expect(unread.get_by_text("Line 14")).to_be_visible()
    expect(page.locator("#import-preview .verdict")).to_contain_text("615 / 1,000 points")
    shot("import-preview")

    # The line offers the catalogue's nearest names and what else it might be, as buttons.
    line = page.locator("#unread-14")
    expect(line.locator(".answer")).to_contain_text(["Saurus Knights"])
    for answer in ("A unit", "A battalion", "An enhancement", "A note", "Drop it"):
        expect(line.get_by_text(answer, exact=True)).to_be_visible()
    line.get_by_text("Saurus Knights", exact=True).click()
    page.get_by_role("button", name="Read the list again").click()
    expect(page.locator(".unread")).to_have_count(0)
    expect(page.locator("#import-preview .verdict")).to_contain_text("735 / 1,000 points · valid")
    # The header's constellation is kept as the subfaction; nothing of the header is dropped.
    expect(page.locator("#import-preview")).to_contain_text("Seraphon (Koatl's Claw)")
    shot("import-fixed")

    page.get_by_role("button", name="Save roster").click()
    expect(page.get_by_test_id("roster-points")).to_have_text("735")
    expect(page.locator(".entry-name", has_text="Saurus Knights")).to_be_visible()
    expect(page.locator(".entry-name", has_text="Saurus Oldblood on Carnosaur")).to_be_visible()


def test_upload_a_rosz_and_save(page: Page, live_server: str, tmp_path) -> None:
    import io
    import zipfile

    from tests.list_texts import ROS

    rosz = tmp_path / "list.rosz"
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("list.ros", ROS)
    rosz.write_bytes(packed.getvalue())
    page.goto(live_server + "/rosters/import")
    page.get_by_label("Or its file").set_input_files(str(rosz))
    page.get_by_role("button", name="Read the list").click()
    expect(page.locator("#import-preview .verdict")).to_contain_text("690 / 1,000 points")
    expect(page.locator("#import-preview")).to_contain_text("BattleScribe .rosz files")
    # The file travels with the preview: saving reads it again, with no second upload.
    page.get_by_role("button", name="Save roster").click()
    expect(page.get_by_test_id("roster-points")).to_have_text("690")
