# Muster: one name per task. `make run` serves Muster, `make test` runs everything.
# Both set up what they need: a virtual environment with the Python packages and, on
# Debian or Raspberry Pi OS, the system libraries (through apt, when missing and allowed).

PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
# What serving needs (`make run`, `make setup`), and on top of it the test tools (`make test`).
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test
HOST ?= 0.0.0.0
PORT ?= 5000
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# Debian packages: WeasyPrint's libraries (run), plus Chromium for the browser tests.
RUN_DEBS := libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fonts-dejavu-core
# The club set-up's front server (app/serving/front.py), and for its tests the ACME test server, a DNS
# server taking RFC 2136 updates and NSS's certutil (Chromium's trusted roots).
FRONT_DEBS := nginx
# Chromium for the browser tests, which drive its headless shell where apt has it (the same
# Chromium without the windowed browser's parts: about a third less CPU a test).
BROWSER_DEBS = chromium $(shell apt-cache show chromium-headless-shell >/dev/null 2>&1 && echo chromium-headless-shell)
TEST_DEBS = $(RUN_DEBS) $(FRONT_DEBS) $(BROWSER_DEBS) poppler-utils pebble knot libnss3-tools

.PHONY: apt all setup run service https test soak shots lint format bench bench-all check-seeds clean constraints system-deps-run system-deps-test icons vendor-axe translations

all: test

# Every install takes its versions from constraints.txt: the ones `make test` last passed with.
define VENV_UP
	@$(PYTHON) -c 'import ensurepip' 2>/dev/null || $(MAKE) --no-print-directory apt DEBS=python3-venv
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
endef

$(STAMP): pyproject.toml constraints.txt
	$(VENV_UP)
	$(PY) -m pip install --quiet -c constraints.txt -e .
	touch $(STAMP)

# Serving's packages, the test tools and certbot (the ACME test runs it) in one install: each
# install builds Muster's editable wheel anew (about 10 s on a fresh clone). The test tools are
# byte-compiled as they are first imported, not all at install (13 s less).
$(TEST_STAMP): pyproject.toml constraints.txt
	$(VENV_UP)
	$(PY) -m pip install --quiet --no-compile -c constraints.txt -e '.[test,https]'
	touch $(STAMP) $(TEST_STAMP)

# After a dependency changed in pyproject.toml: install it (with the test tools and the https
# extra), run `make test`, then pin what .venv holds for every later install.
constraints: $(TEST_STAMP)
	$(PY) -m pip install --quiet --no-compile -e '.[test,https]'  # make constraints: unpinned, so a new dependency resolves
	{ echo "# Exact versions for make setup, make test and make https (pip install -c constraints.txt):"; \
	  echo "# the ones the suite passed with. Written by make constraints from .venv."; \
	  $(PY) -m pip freeze --exclude-editable; } > constraints.txt

# apt-get install DEBS that are not installed yet, as root or through passwordless sudo.
apt:
	@missing=""; for p in $(DEBS); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; done; \
	if [ -z "$$missing" ]; then exit 0; fi; \
	if ! command -v apt-get >/dev/null; then echo "note: not Debian; install by hand:$$missing"; exit 0; fi; \
	if [ "$$(id -u)" = 0 ]; then SUDO=""; elif sudo -n true 2>/dev/null; then SUDO="sudo -n"; \
	elif command -v sudo >/dev/null && [ -t 0 ]; then SUDO="sudo"; else \
	  echo "note: cannot install$$missing (needs root); install them with apt"; exit 0; fi; \
	echo "installing:$$missing"; \
	$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing >/dev/null

system-deps-run:
	@$(MAKE) --no-print-directory apt DEBS="$(RUN_DEBS)"

system-deps-test:
	@$(MAKE) --no-print-directory apt DEBS="$(TEST_DEBS)"

# Everything `run` needs, without serving: after `git pull`, before restarting the service.
setup: system-deps-run $(STAMP)

run: setup
	$(PY) -m app serve --host $(HOST) --port $(PORT)

# Install and start the systemd service for this checkout and user (docs/raspberry-pi.md):
# Muster behind its own nginx (the front server), and the timer that renews its certificate.
service: setup
	@$(MAKE) --no-print-directory apt DEBS="$(FRONT_DEBS)"
	@test -f instance/muster.env || { umask 077; mkdir -p instance; cp docs/systemd/muster.env instance/muster.env; \
	  echo "made instance/muster.env: set MUSTER_ADMIN_PASSWORD in it"; }
	@if [ -n "$$MUSTER_REPLICA" ] && ! grep -q '^MUSTER_REPLICA=' instance/muster.env; then \
	  echo "MUSTER_REPLICA=$$MUSTER_REPLICA" >> instance/muster.env; echo "replicating to $$MUSTER_REPLICA (instance/muster.env)"; fi
	@# A club that put its own proxy in front (MUSTER_PROXY) keeps it: Muster's front server stays off.
	@if grep -q '^MUSTER_PROXY=[1-9]' instance/muster.env && ! grep -q '^MUSTER_FRONT=' instance/muster.env; then \
	  echo "MUSTER_FRONT=" >> instance/muster.env; echo "your own proxy stays in front: MUSTER_FRONT= (instance/muster.env)"; fi
	@# Debian starts its own nginx on port 80 when the package is installed: Muster runs its own.
	-@$(SUDO) systemctl disable --now nginx >/dev/null 2>&1
	for unit in muster.service muster-renew.service muster-renew.timer; do \
	  sed -e "s|@USER@|$$(id -un)|g" -e "s|@DIR@|$$(pwd)|g" docs/systemd/$$unit | $(SUDO) tee /etc/systemd/system/$$unit >/dev/null; done
	$(SUDO) systemctl daemon-reload
	$(SUDO) systemctl enable --now muster-renew.timer
	$(SUDO) systemctl enable muster
	$(SUDO) systemctl restart muster
	@echo "Muster runs as a service: sudo systemctl status muster"

# A publicly trusted HTTPS certificate for this Pi, then the service that serves it (docs/raspberry-pi.md):
#   make https DOMAIN=ourclub.duckdns.org DNS=duckdns        (DNS: duckdns, cloudflare, desec or rfc2136)
# Optional: EMAIL=... (Let's Encrypt's notices), CREDENTIALS=FILE (else asked), ACME_SERVER=URL (staging).
https: setup
	$(PY) -m pip install --quiet -c constraints.txt -e '.[https]'
	$(PY) -m app https --domain "$(DOMAIN)" --dns "$(DNS)" $(if $(EMAIL),--email "$(EMAIL)") \
	  $(if $(CREDENTIALS),--credentials "$(CREDENTIALS)") $(if $(ACME_SERVER),--acme-server "$(ACME_SERVER)")
	@$(MAKE) --no-print-directory service

lint: $(TEST_STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: $(TEST_STAMP)
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

# Rules text must be our own words: any long run copied from the source books fails the build.
check-seeds:
	@if [ -f ../shared/tools/seedcopy.py ]; then \
	  out="$$(python3 ../shared/tools/seedcopy.py .)"; \
	  if [ -n "$$out" ]; then echo "$$out"; echo "text copied from the seeds (above)"; exit 1; fi; \
	fi

test: system-deps-test $(TEST_STAMP) lint check-seeds
	$(PY) -m pytest -q -n 2 --dist loadfile --no-loadscope-reorder  # two workers, one test file each at a time, in the order tests/conftest.py sets

# The randomised and fault-injecting tests (marked soak) at full size: before a release, or after
# touching the outbox, the store or the server. `MUSTER_SOAK=1 make test` runs everything at full size.
soak: system-deps-test $(TEST_STAMP)
	MUSTER_SOAK=1 $(PY) -m pytest -q -n 2 --dist loadfile --no-loadscope-reorder -m soak

# The browser tests, each screen they check saved as a picture in test-artifacts/ for a person to
# look at (MUSTER_SHOTS=1): `make test` takes none, but a failed test leaves its pages' pictures.
shots: system-deps-test $(TEST_STAMP)
	MUSTER_SHOTS=1 $(PY) -m pytest -q -n 2 --dist loadfile --no-loadscope-reorder tests/browser

# Benchmarks also need wrk (the HTTP load generator): installed for bench only. `make bench`
# prints the speed table (issue 32: against bare apps and bare WeasyPrint, one core, first
# visit) in a few minutes; `make bench-all` runs every benchmark in tests/bench (much longer).
bench: system-deps-test $(TEST_STAMP)
	@$(MAKE) --no-print-directory apt DEBS="wrk"
	$(PY) -m pytest -q -s tests/bench/test_speed.py -p no:cacheprovider

bench-all: system-deps-test $(TEST_STAMP)
	@$(MAKE) --no-print-directory apt DEBS="wrk"
	$(PY) -m pytest -q -s tests/bench -p no:cacheprovider

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache test-artifacts

# Every word a player reads, in every language Muster speaks (docs/translating.md): take the
# strings from the code, templates and scripts, bring each language's catalogue up to date,
# compile. The .po and .mo files are committed: a checkout runs without this step.
BABEL := $(VENV)/bin/pybabel
translations: $(STAMP)
	$(BABEL) -q extract -F babel.cfg -k _l -k say -k say_plural:1,2 -k words -k plural_words:1,2 --no-wrap --sort-by-file --project Muster -o app/translations/messages.pot .
	$(BABEL) -q extract -F babel-scripts.cfg -k tr -k trn:1,2 --no-wrap --sort-by-file --project Muster -o app/translations/scripts.pot .
	$(BABEL) -q update --no-wrap --ignore-obsolete -D messages -i app/translations/messages.pot -d app/translations
	$(BABEL) -q update --no-wrap --ignore-obsolete -D scripts -i app/translations/scripts.pot -d app/translations
	$(BABEL) -q compile --statistics -D messages -d app/translations
	$(BABEL) -q compile --statistics -D scripts -d app/translations

# The app icons (static/icons/*.png), drawn with Pillow (WeasyPrint brings it).
icons: $(STAMP)
	$(PY) -m app.icons

# axe-core for the accessibility tests, from the npm registry, its version in the file name.
AXE_VERSION ?= 4.14.1
vendor-axe:
	@tmp=$$(mktemp -d) && cd $$tmp && npm pack --silent axe-core@$(AXE_VERSION) >/dev/null && tar xzf axe-core-$(AXE_VERSION).tgz && cd - >/dev/null && \
	rm -f tests/browser/vendor/axe-core-* && \
	cp $$tmp/package/axe.min.js tests/browser/vendor/axe-core-$(AXE_VERSION).min.js && \
	cp $$tmp/package/LICENSE tests/browser/vendor/axe-core-$(AXE_VERSION).LICENSE.txt && rm -rf $$tmp
