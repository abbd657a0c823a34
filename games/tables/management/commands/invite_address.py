"""`make run` prints, before daphne starts, the address to open here and the one to share.

`python manage.py invite_address HOST PORT`: HOST and PORT as daphne is about to be bound to
(the Makefile's). The pages work it out the same way once the server runs (games/tables/
sharing.py), asking the server rather than this command's word.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.utils.translation import gettext as _

from games.tables.sharing import is_loopback, network_address


class Command(BaseCommand):
    help = "Print the address to open the app at and the one phones on the network can reach."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("host", help="the address daphne listens on (make run HOST=...)")
        parser.add_argument("port", type=int, help="its port (make run PORT=...)")

    def handle(self, *args: Any, host: str, port: int, **options: Any) -> None:
        self.stdout.write(self.lines(host, port))

    @staticmethod
    def lines(host: str, port: int) -> str:
        bare = host.strip("[]")
        everywhere = bare in ("0.0.0.0", "::")
        here = f"http://127.0.0.1:{port}" if everywhere or is_loopback(bare) else ""
        shown = f"[{bare}]" if ":" in bare else bare
        lines = [_("Open the app here at %(url)s") % {"url": here or f"http://{shown}:{port}"}]
        if settings.SITE_URL:
            lines.append(_("Players join at %(url)s") % {"url": settings.SITE_URL})
        elif everywhere:
            lan = network_address()
            if lan is None:
                lines.append(_("This computer has no network address: only it can open the app."))
            else:
                lines.append(
                    _("Phones on the same network join at %(url)s")
                    % {"url": f"http://{lan}:{port}"}
                )
        elif is_loopback(bare):
            lines.append(
                _(
                    "Only this computer can open it. To let phones on your network join, start"
                    " with: make run HOST=0.0.0.0"
                )
            )
        else:
            lines.append(
                _("Phones on the same network join at %(url)s") % {"url": f"http://{shown}:{port}"}
            )
        return "\n".join(lines)
