"""The live board on the web: a page per game, served by the bot itself when WEB_PORT is set,
showing the public view of the game as it moves (see `server`, `hub` and `page`).

Sits above the messages (it says what the posts say, the same way) and below the aftermath,
which tells it of every change the pipeline follows.
"""

from hvbot.web.hub import Hub
from hvbot.web.server import WebServer

__all__ = ["Hub", "WebServer"]
