"""An engine that answers the handshake and the setup, then never answers again."""

import time

from common import Engine, main


class Hangs(Engine):
    name = "hangs"

    def answer(self, request):
        if request.get("type") in ("hello", "setup"):
            return super().answer(request)
        time.sleep(3600)


if __name__ == "__main__":
    main(Hangs)
