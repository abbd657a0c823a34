"""Fixtures for the web tests."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import new_client


@pytest.fixture
def client() -> Client:
    """pytest-django's `client`, sharing one request handler with the other test browsers."""
    return new_client()
