"""An engine that answers the question of its choices with a line that is not JSON."""

from common import Engine, main


class Garbage(Engine):
    name = "garbage"

    def answer(self, request):
        if request.get("type") == "choices":
            return "choices: all of them"
        return super().answer(request)


if __name__ == "__main__":
    main(Garbage)
