# One Night: the two commands of the README, and what they need.
#   make run   - set up, then serve the app on embedded defaults at http://127.0.0.1:8000
#                (HOST=0.0.0.0: phones on the network too; it prints the address to share)
#   make test  - set up (Python packages and Debian's chromium), then run ruff, mypy and every test
# Both work on a fresh clone; nothing else needs installing by hand.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/test
TEST_REDIS_URL ?= redis://127.0.0.1:6379/1
# Test processes (pytest-xdist): the tests that start servers or a browser run in one of them,
# one after the other; the rest are shared out (tests/conftest.py SERVERS).
TEST_WORKERS ?= 2
PARALLEL := -n $(TEST_WORKERS) --dist loadgroup
export TEST_DATABASE_URL TEST_REDIS_URL

.PHONY: run test install browser gettext messages lint format bench bench-scenarios bench-werewolf serve clean

$(BIN)/python:
	$(PYTHON) -c 'import sys; assert sys.version_info[:2] == (3, 13), "Python 3.13 is needed (see .python-version)"'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet --editable '.[dev]'
	touch $@

install: $(VENV)/.installed

# Debian's Chromium for the browser tests (Playwright's own browser download needs the internet).
browser:
	@command -v chromium >/dev/null 2>&1 || { \
		echo "Installing Debian's chromium for the browser tests"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }

# GNU gettext: makemessages (the translation tests and `make messages`) runs its xgettext.
gettext:
	@command -v xgettext >/dev/null 2>&1 || { \
		echo "Installing GNU gettext for the translation catalogues"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gettext >/dev/null; }

# Translation catalogues (docs/i18n.md): `make messages LOCALE=fr` starts French; `make messages`
# refreshes every language in locale/ and compiles them.
messages: install gettext
	$(BIN)/python manage.py makemessages $(if $(LOCALE),--locale $(LOCALE),--all) --no-location \
		--ignore 'tests/*' --ignore 'bench/*' --ignore '.venv/*'
	$(BIN)/python manage.py compilemessages --ignore '.venv/*'

run: install
	$(BIN)/python manage.py migrate --noinput
	@$(BIN)/python manage.py invite_address $(HOST) $(PORT)
	$(BIN)/python -m daphne -b $(HOST) -p $(PORT) onenight.asgi:application

# The suite runs on the embedded defaults; then, when PostgreSQL and Redis answer here, once more
# against them (the multi-process tests always use them, and skip when they are missing).
# The second run is `-m backends`: the tests that can reach the database or the channel layer
# (pytest-django's database, a server process, the channel layer; tests/conftest.py marks them).
# The others (pure engines, scenario runners, unit tests with no database) cannot tell the two
# backends apart, since pytest-django refuses them the database: running them again only cost
# CI time. The browser tests run once, on the embedded defaults: a browser drives the same pages
# and sockets either way, and the servers' PostgreSQL + Redis behaviour (two processes, one
# database, one channel layer, a process killed mid-day) is what tests/multiprocess plays with
# real daphne processes. Chromium is the slowest part of the suite; once is enough.
test: install browser gettext
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/python -m pytest $(PARALLEL) $(PYTEST_ARGS)
	@if $(BIN)/python bin/services-answer; then \
		echo "PostgreSQL and Redis answer: running the suite against them as well"; \
		DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(TEST_REDIS_URL) \
			$(BIN)/python -m pytest $(PARALLEL) --ignore=tests/multiprocess -m "backends and not browser" $(PYTEST_ARGS); \
	else \
		echo "PostgreSQL or Redis does not answer: skipped the second run against them"; \
	fi

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

format: install
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

bench-scenarios: install
	$(BIN)/python bench/scenarios.py

# Random 12-player multi-night games through the engine, per ruleset (docs/benchmarks.md).
bench-werewolf: install
	$(BIN)/python bench/werewolf.py $(BENCH_ARGS)

# The load benchmark (docs/benchmarks.md); BENCH_ARGS="--games 25,50" and so on.
bench: install
	$(BIN)/python bench/load.py $(BENCH_ARGS)

# Production start (docs/deploy.md): needs DJANGO_SECRET_KEY, DJANGO_ALLOWED_HOSTS and, for
# more than one worker, DATABASE_URL and REDIS_URL.
WORKERS ?= 2
FIRST_PORT ?= 8001
serve: install
	bin/serve $(WORKERS) $(FIRST_PORT)

clean:
	rm -rf $(VENV) var staticfiles .pytest_cache .ruff_cache .mypy_cache .hypothesis test-artifacts
