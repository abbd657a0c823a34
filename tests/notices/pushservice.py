"""A push service on this machine, as a browser's would be (RFC 8030): it takes the app's
POSTs, checks each one's VAPID signature (RFC 8292) against the server's public key, and
decrypts its body with the browser's keys (RFC 8291, aes128gcm, by http-ece). Addresses under
/gone/ answer 410, as for a subscription the browser dropped."""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Browser:
    """One browser's push subscription keys (what PushManager.subscribe makes)."""

    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    def keys(self) -> dict[str, str]:
        public = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {"p256dh": b64(public), "auth": b64(self.auth)}


def vapid_claims(authorization: str, server_key: str) -> dict[str, Any]:
    """The claims of a `vapid t=<JWT>, k=<key>` header, once its ES256 signature is checked
    against `server_key`; AssertionError if anything is wrong."""
    scheme, _, rest = authorization.partition(" ")
    assert scheme == "vapid", authorization
    parts = dict(p.strip().split("=", 1) for p in rest.split(","))
    assert parts["k"] == server_key, "signed with another key"
    header, claims, signature = parts["t"].split(".")
    assert json.loads(unb64(header)) == {"typ": "JWT", "alg": "ES256"}
    raw = unb64(signature)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(server_key))
    public.verify(der, f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    return dict(json.loads(unb64(claims)))


@dataclass
class PushService:
    server_key: str
    browsers: dict[str, Browser] = field(default_factory=dict)
    received: list[tuple[str, dict[str, Any], dict[str, Any]]] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    port: int = 0

    def endpoint(self, name: str, gone: bool = False) -> str:
        self.browsers.setdefault(name, Browser())
        return f"http://127.0.0.1:{self.port}/{'gone' if gone else 'push'}/{name}"

    def subscription(self, name: str, gone: bool = False) -> dict[str, Any]:
        endpoint = self.endpoint(name, gone)
        return {"endpoint": endpoint, "keys": self.browsers[name].keys()}

    def handle(self, path: str, headers: Any, body: bytes) -> int:
        kind, name = path.strip("/").split("/")
        if kind == "gone":
            self.refused.append(name)
            return 410
        claims = vapid_claims(headers["Authorization"], self.server_key)
        assert claims["aud"] == f"http://127.0.0.1:{self.port}"
        assert claims["exp"] > time.time() and claims["sub"].startswith("mailto:")
        assert headers["Content-Encoding"] == "aes128gcm" and int(headers["TTL"]) > 0
        browser = self.browsers[name]
        plain = http_ece.decrypt(
            body, private_key=browser.key, auth_secret=browser.auth, version="aes128gcm"
        )
        self.received.append((name, json.loads(plain), claims))
        return 201


def serve(service: PushService) -> ThreadingHTTPServer:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            try:
                status = service.handle(self.path, self.headers, body)
            except Exception as error:  # a bad message: the test reads why
                service.refused.append(f"{self.path}: {error!r}")
                status = 400
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    service.port = server.server_address[1]
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server
