"""Templates compiled by one start of the server, kept for the next (app/serving/compiled_templates.py)."""

from __future__ import annotations

from pathlib import Path

from jinja2 import Environment, FileSystemLoader

from app.serving import compiled_templates


def _started(templates: Path, instance: Path) -> Environment:
    """A template environment as `serve` sets one up: compiled code kept under the instance folder."""
    environment = Environment(loader=FileSystemLoader(str(templates)), autoescape=True)
    environment.bytecode_cache = compiled_templates.cache(instance, "pages")
    return environment


def test_a_second_start_reuses_the_compiled_code_and_an_edited_template_is_served_as_edited(
    tmp_path: Path,
) -> None:
    templates, instance = tmp_path / "templates", tmp_path / "instance"
    templates.mkdir()
    (templates / "home.html").write_text("<h1>{{ name }}</h1>")
    assert _started(templates, instance).get_template("home.html").render(name="Club") == "<h1>Club</h1>"
    kept = list((instance / compiled_templates.FOLDER).rglob("*.cache"))
    assert len(kept) == 1

    assert _started(templates, instance).get_template("home.html").render(name="<b>") == "<h1>&lt;b&gt;</h1>"
    (templates / "home.html").write_text("<h2>{{ name }} tonight</h2>")
    assert (
        _started(templates, instance).get_template("home.html").render(name="Club") == "<h2>Club tonight</h2>"
    )


def test_folders_made_by_other_code_are_removed(tmp_path: Path) -> None:
    old = tmp_path / compiled_templates.FOLDER / "0123456789abcdef" / "pages"
    old.mkdir(parents=True)
    assert compiled_templates.cache(tmp_path, "pages") is not None
    assert not old.parent.exists()


def test_an_instance_folder_that_cannot_be_written_compiles_in_memory(tmp_path: Path) -> None:
    blocked = tmp_path / "instance"
    blocked.write_text("a file where the folder would be")
    assert compiled_templates.cache(blocked, "pages") is None
