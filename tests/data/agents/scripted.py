"""A test agent of the agents protocol, standard library only: it answers every decision with its first legal
answer (done for the actions), after misbehaving in the way its argument names, at its first decision:

    good         never misbehaves
    illegal      answers "maybe" twice (both refused: the engine takes the safe answer)
    illegal-once answers "maybe" once, then a legal answer
    bad-json     writes a line that is not JSON, then a legal answer
    too-long     writes a line of 1.5 MiB, then a legal answer
    wrong-id     answers decision 999 first, then the decision asked
    text         asks for the text view in its hello and answers every decision with "choice": 1
    die          exits at its first decision
    silent       never answers its first decision
    flood        writes junk lines for ever at its first decision
    deaf         never reads: writes junk lines for ever from the start
    old          says it speaks protocol 99 in its hello
    stuffed      after its hello, never reads again and writes junk lines (the engine's writes fill its input)
    fork         starts a child that sleeps a minute holding its pipes (its pid written to $FORK_PID_FILE)
    surrogate    answers with a lone surrogate in a string first, then a legal answer
    chatty-end   writes junk lines when told the game is over
"""

import json
import sys
import time

MODE = sys.argv[1] if len(sys.argv) > 1 else "good"


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def first_legal(decision):
    legal = decision["legal"]
    if isinstance(legal, list):
        return legal[0]
    if "done" in legal:
        return None
    return 0  # a bid: pass


def main():
    if MODE == "deaf":
        while True:
            sys.stdout.write("junk\n" * 1000)
            sys.stdout.flush()
    if MODE == "fork":
        import os

        child = os.fork()
        if child == 0:
            time.sleep(60)
            os._exit(0)
        with open(os.environ["FORK_PID_FILE"], "w") as out:
            out.write(str(child))
    misbehaved = False
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            reply = {"type": "hello", "name": f"scripted-{MODE}", "view": "text" if MODE == "text" else "json"}
            if MODE == "old":
                reply["protocol"] = 99
            send(reply)
            if MODE == "stuffed":
                while True:
                    sys.stdout.write('{"type": "junk"}\n')
                    sys.stdout.flush()
                    time.sleep(0.001)
        elif kind == "decision":
            number = message["id"]
            if not misbehaved:
                misbehaved = True
                if MODE == "die":
                    sys.exit(3)
                if MODE == "silent":
                    time.sleep(60)
                if MODE == "flood":
                    while True:
                        sys.stdout.write('{"type": "chatter"}\n')
                        sys.stdout.flush()
                if MODE in ("illegal", "illegal-once"):
                    send({"type": "answer", "id": number, "answer": "maybe"})
                    if MODE == "illegal":
                        send({"type": "answer", "id": number, "answer": "maybe"})
                        continue
                if MODE == "bad-json":
                    sys.stdout.write("{this is not json\n")
                if MODE == "too-long":
                    sys.stdout.write("x" * (3 << 19) + "\n")
                if MODE == "wrong-id":
                    send({"type": "answer", "id": 999, "answer": None})
                if MODE == "surrogate":
                    sys.stdout.write('{"type": "answer", "id": ' + str(number) + ', "answer": "\\ud800"}\n')
            if MODE == "text":
                send({"type": "answer", "id": number, "choice": 1})
            else:
                send({"type": "answer", "id": number, "answer": first_legal(message)})
        elif kind == "end":
            if MODE == "chatty-end":
                for _ in range(50):
                    sys.stdout.write('{"type": "answer", "id": 1, "answer": null}\n')
                sys.stdout.flush()
            return


if __name__ == "__main__":
    main()
