"""docs/openapi.yaml for the tests: its routes, and real answers checked against it."""

from __future__ import annotations

import copy
import importlib.util
import re
from collections import Counter
from types import ModuleType
from typing import Any

import schemathesis
import yaml
from flask.testing import FlaskClient

from tests.conftest import ROOT

SPEC_PATH = ROOT / "docs" / "openapi.yaml"


HTTP_METHODS = {"get", "put", "post", "delete", "patch", "head", "options", "trace"}


def load_tool(name: str) -> ModuleType:
    """One of tools/*.py as a module (tools/ is scripts, not a package)."""
    spec = importlib.util.spec_from_file_location(f"{name}_tool", ROOT / "tools" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# docs/openapi.yaml parsed once a test process, by its text: PyYAML's pure-Python loader took
# over a second for each of the dozen tests and fixtures that read it.
_parsed: dict[str, dict[str, Any]] = {}
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's, where PyYAML was built with it


def load_spec() -> dict[str, Any]:
    """docs/openapi.yaml as a dict (a copy of its own: callers may change it)."""
    text = SPEC_PATH.read_text()
    if text not in _parsed:
        _parsed.clear()
        _parsed[text] = yaml.load(text, Loader=_LOADER)
    return copy.deepcopy(_parsed[text])


def spec_routes(spec: dict[str, Any]) -> set[tuple[str, str]]:
    """Every (METHOD, path) the description has."""
    return {(m.upper(), path) for path, item in spec["paths"].items() for m in item if m in HTTP_METHODS}


# ---------------------------------------------------------------------------------------------
# Real answers of normal flows validate against the description
# ---------------------------------------------------------------------------------------------
class Conformance:
    """Sends requests through the Flask client and checks each answer against docs/openapi.yaml."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        self.spec = load_spec()
        self.schema = schemathesis.openapi.from_dict(self.spec)
        self.seen: Counter[tuple[str, str, int]] = Counter()

    def _template(self, method: str, path: str) -> str:
        paths = {t: item for t, item in self.spec["paths"].items() if method.lower() in item}
        if path in paths:  # a literal path (games/import) wins over a parameter (games/{game_id})
            return path
        for template in paths:
            if re.fullmatch(re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template)), path):
                return template
        raise AssertionError(f"{method} {path} is not in docs/openapi.yaml")

    def call(self, method: str, path: str, status: int, **kwargs: Any) -> Any:
        """Send one request; assert its status, that the status is documented and the body conforms."""
        response = self.client.open(path, method=method, **kwargs)
        assert response.status_code == status, (method, path, response.status_code, response.get_data(True))
        template = self._template(method, path)
        documented = self.spec["paths"][template][method.lower()]["responses"]
        assert str(status) in documented, f"{method} {template} answers {status}, not in docs/openapi.yaml"
        self.schema[template][method.upper()].validate_response(response)
        self.seen[(method, template, status)] += 1
        return response.json
