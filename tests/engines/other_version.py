"""An engine that speaks version 2 of the protocol."""

from common import Engine, main


class OtherVersion(Engine):
    name = "from-the-future"
    protocol = ("dmcheck-conform", 2)


if __name__ == "__main__":
    main(OtherVersion)
