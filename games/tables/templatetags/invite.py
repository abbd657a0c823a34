"""The invite link as a QR code, for a table of phones (issue 30): drawn by segno (a well-kept,
pure-Python QR encoder) as inline SVG, so the page needs no image request and no script."""

from __future__ import annotations

import segno
from django import template
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


@register.filter
def qr_svg(url: str) -> SafeString:
    """An SVG QR code of `url` (error correction M: still read from a screen held at a slant).
    Dark on white whatever the theme: phone cameras read that best."""
    code = segno.make(str(url), error="m")
    return mark_safe(code.svg_inline(scale=5, border=3, dark="#000", light="#fff"))
