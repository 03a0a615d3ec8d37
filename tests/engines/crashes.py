"""An engine that dies with an error on its first apply."""

from common import Engine, main


class Crashes(Engine):
    name = "crashes"

    def answer(self, request):
        if request.get("type") == "apply":
            raise RuntimeError("engine bug: no such card")
        return super().answer(request)


if __name__ == "__main__":
    main(Crashes)
