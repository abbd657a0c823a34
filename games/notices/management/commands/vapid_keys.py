"""python manage.py vapid_keys: a new VAPID key pair for Web Push (RFC 8292), printed as the
environment variables the server reads (docs/deploy.md). Keep the private key secret; changing
the pair makes every browser's push subscription useless (they subscribe again)."""

from __future__ import annotations

from typing import Any

from cryptography.hazmat.primitives import serialization
from django.core.management.base import BaseCommand
from py_vapid import Vapid, b64urlencode


class Command(BaseCommand):
    help = "Make a VAPID key pair for Web Push and print it as environment variables."

    def handle(self, *args: Any, **options: Any) -> None:
        vapid = Vapid()
        vapid.generate_keys()
        private = vapid.private_key.private_numbers().private_value.to_bytes(32, "big")
        public = vapid.public_key.public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        self.stdout.write(f"ONENIGHT_VAPID_PUBLIC_KEY={b64urlencode(public)}")
        self.stdout.write(f"ONENIGHT_VAPID_PRIVATE_KEY={b64urlencode(private)}")
