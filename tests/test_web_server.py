"""The web table's server (issue 30, first part): the lobby's API, a table's links, a seat playing a whole
game over its WebSocket with the agents protocol, a spectator, and the pages shipped in the package."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from monopoly import create_web_app


@pytest.fixture
def client() -> TestClient:
    return TestClient(create_web_app())


def new_table(client: TestClient, **extra: Any) -> dict[str, Any]:
    body = {"ruleset": "classic", "variants": [], "seats": [{"name": "Ada"}, {"bot": "greedy"}, {"bot": "greedy"}],
            "seed": 3, "max_turns": 30, **extra}
    response = client.post("/api/tables", json=body)
    assert response.status_code == 200, response.text
    return response.json()


def test_the_lobby_lists_editions_variants_and_bots(client):
    listed = client.get("/api/rulesets").json()
    assert {"classic", "uk"} <= {e["id"] for e in listed["editions"]}
    variants = {v["id"]: v["description"] for v in listed["variants"]}
    assert "free-parking-jackpot" in variants and variants["speed-die"].startswith("The 2007 speed die")
    assert listed["bots"] == ["random", "greedy", "cautious", "trader"]
    page = client.get("/")
    assert page.status_code == 200 and "lobby.js" in page.text


def test_variants_are_checked_live_with_their_conflicts(client):
    ok = client.post("/api/check", json={"ruleset": "classic", "variants": ["no-auctions"]}).json()
    assert ok["ok"] and ok["problems"] == []
    both = client.post("/api/check", json={"ruleset": "uk", "variants": ["speed-die", "tournament"]}).json()
    assert both["ok"] and both["name"]
    unknown = client.post("/api/check", json={"ruleset": "classic", "variants": ["nope"]}).json()
    assert not unknown["ok"] and "no built-in variant 'nope'" in unknown["problems"][0]
    edition = client.post("/api/check", json={"ruleset": "speed-die", "variants": []}).json()
    assert not edition["ok"] and "no built-in edition" in edition["problems"][0]


def test_a_table_gives_each_person_an_unguessable_link(client):
    made = new_table(client)
    assert made["ok"] and made["seed"] == 3
    person, *bots = made["seats"]
    assert person["name"] == "Ada" and person["link"].startswith(f"/table/{made['id']}#")
    assert len(person["link"].split("#")[1]) >= 32 and all(b["link"] is None for b in bots)
    assert client.get(f"/table/{made['id']}").status_code == 200
    assert client.get("/table/nope").status_code == 404
    svg = client.get(f"/api/tables/{made['id']}/board.svg")
    assert svg.status_code == 200 and svg.text.startswith("<svg")


@pytest.mark.parametrize("body", [{"ruleset": "nope", "seats": [{"name": "A"}, {"bot": "greedy"}]},
                                  {"ruleset": "classic", "seats": [{"name": "A"}]},
                                  {"ruleset": "classic", "seats": [{"name": "A"}, {"bot": "greedyy"}]},
                                  {"ruleset": "classic", "seats": [{"name": "\x1b[31m"}, {"bot": "greedy"}]},
                                  {"ruleset": "classic", "seats": "two"}])
def test_a_bad_table_is_refused_with_the_reason(client, body):
    response = client.post("/api/tables", json=body)
    assert response.status_code == 400 and response.json()["problems"]


def test_a_seat_plays_a_whole_game_over_its_websocket(client):
    made = new_table(client)
    token = made["seats"][0]["link"].split("#")[1]
    answered = 0
    with client.websocket_connect(f"/ws/{made['id']}") as socket:
        socket.send_json({"type": "join", "token": token})
        assert socket.receive_json()["type"] == "joined"
        assert socket.receive_json()["type"] == "hello"
        while True:
            message = socket.receive_json()
            if message["type"] == "end":
                break
            if message["type"] != "decision":
                continue
            assert message["text"] and "state" in message
            socket.send_json({"type": "answer", "id": message["id"], "choice": 1})
            answered += 1
    assert answered > 5


def test_a_wrong_token_is_refused_and_a_spectator_sees_the_events(client):
    made = new_table(client)
    with client.websocket_connect(f"/ws/{made['id']}") as socket:
        socket.send_json({"type": "join", "token": "guess"})
        assert socket.receive_json() == {"type": "error", "reason": "no seat of this table has that link"}
    with client.websocket_connect(f"/ws/{made['id']}") as socket:
        socket.send_json({"type": "join", "token": "watch"})
        joined = socket.receive_json()
        assert joined["type"] == "joined" and joined["seat"] is None and joined["board"][39]["name"] == "Boardwalk"
        events = socket.receive_json()
        assert events["type"] == "events" and events["events"][0]["type"] == "game_start"
        assert "seed" not in events["events"][0] and "decks" not in events["events"][0]


def test_the_pages_are_small_and_load_nothing_from_elsewhere(client):
    from importlib import resources

    folder = resources.files("monopoly.web").joinpath("static")
    total = 0
    for name in ("lobby.html", "lobby.js", "table.html", "table.js", "style.css"):
        text = folder.joinpath(name).read_text(encoding="utf-8")
        total += len(text.encode("utf-8"))
        loads = text.replace("http://www.w3.org/2000/svg", "")  # a namespace's name, nothing fetched
        assert "http://" not in loads and "https://" not in loads and "//cdn" not in loads
        assert client.get(f"/static/{name}").status_code == 200
    assert total <= 150 * 1024


def test_an_uploaded_edition_is_checked_kept_under_the_servers_name_and_played(tmp_path):
    client = TestClient(create_web_app(tmp_path))
    text = (Path(__file__).resolve().parent / "data" / "good" / "harbour-24.yaml").read_bytes()
    uploaded = client.post("/api/editions", content=text).json()
    assert uploaded["ok"] and uploaded["id"].startswith("upload:") and uploaded["name"]
    assert [p.name for p in tmp_path.glob("upload-*")] == [f"upload-{uploaded['id'].split(':')[1]}.yaml"]
    checked = client.post("/api/check", json={"ruleset": uploaded["id"], "variants": ["no-auctions"]}).json()
    assert checked["ok"]
    restarted = TestClient(create_web_app(tmp_path))  # the upload is kept with the data folder
    assert restarted.post("/api/check", json={"ruleset": uploaded["id"], "variants": []}).json()["ok"]
    made = client.post("/api/tables", json={"ruleset": uploaded["id"], "seats": [{"name": "Ada"}, {"bot": "greedy"}],
                                            "starting_cash": 900}).json()
    assert made["ok"]
    table = client.app.state.lobby.tables[made["id"]]
    from monopoly.game.events import to_dict

    starts = [e["amount"] for e in map(to_dict, table.game.events) if e["type"] == "payment"
              and e["reason"] == "starting cash"]
    assert table.ruleset.starting_cash == 900 and starts == [900, 900]


@pytest.mark.parametrize(("text", "words"), [
    (b"id: bad\nname: Bad\nboard: [\n", "upload.yaml"),
    (b"id: sneaky\nname: Sneaky\nextends: /etc/other.yaml\n", "extends a built-in edition only"),
    (b"id: v\nkind: variant\nname: V\ndescription: a variant\n", "upload an edition"),
])
def test_a_bad_upload_is_refused_with_located_problems_and_nothing_kept(tmp_path, text, words):
    client = TestClient(create_web_app(tmp_path))
    refused = client.post("/api/editions", content=text)
    assert refused.status_code == 400 and not refused.json()["ok"]
    assert any(words in problem for problem in refused.json()["problems"])
    assert list(tmp_path.glob("upload-*")) == [] and str(tmp_path) not in refused.text


def test_a_starting_cash_out_of_bounds_is_refused(client):
    made = client.post("/api/tables", json={"ruleset": "classic", "seats": [{"name": "A"}, {"bot": "greedy"}],
                                            "starting_cash": -5})
    assert made.status_code == 400 and "starting cash" in made.json()["problems"][0]


def test_tables_are_kept_and_resumed_after_a_restart_with_the_same_links(tmp_path):
    first = TestClient(create_web_app(tmp_path))
    made = first.post("/api/tables", json={"ruleset": "classic", "variants": ["no-auctions"], "seed": 4,
                                           "max_turns": 30, "starting_cash": 1200,
                                           "seats": [{"name": "Ada"}, {"bot": "greedy"}]}).json()
    token = made["seats"][0]["link"].split("#")[1]
    with first.websocket_connect(f"/ws/{made['id']}") as socket:
        socket.send_json({"type": "join", "token": token})
        answered = 0
        while answered < 3:
            message = socket.receive_json()
            if message["type"] == "decision":
                socket.send_json({"type": "answer", "id": message["id"], "choice": 1})
                answered += 1
        while socket.receive_json()["type"] != "decision":
            pass  # the next question waits: the table is saved as it is here
    kept = first.app.state.lobby.tables[made["id"]]
    assert (tmp_path / "tables" / f"{made['id']}.json").is_file()
    second = TestClient(create_web_app(tmp_path))  # a new server on the same data folder
    resumed = second.app.state.lobby.tables[made["id"]]
    assert resumed.game.state() == kept.game.state() and resumed.ruleset.starting_cash == 1200
    assert resumed.ruleset.variants == kept.ruleset.variants
    with second.websocket_connect(f"/ws/{made['id']}") as socket:
        socket.send_json({"type": "join", "token": token})  # the same link still works
        assert socket.receive_json()["type"] == "joined"
        kinds = [socket.receive_json()["type"] for _ in range(2)]
        assert kinds == ["hello", "decision"]


def test_a_damaged_kept_table_is_left_and_the_server_starts(tmp_path, capsys):
    (tmp_path / "tables").mkdir()
    (tmp_path / "tables" / "abc.json").write_text("{not json", encoding="utf-8")
    client = TestClient(create_web_app(tmp_path))
    assert client.app.state.lobby.tables == {}
    assert "abc.json not resumed" in capsys.readouterr().err
    assert (tmp_path / "tables" / "abc.json").exists()


def test_connections_to_a_table_are_bounded(client, monkeypatch):
    from monopoly.web import server

    monkeypatch.setattr(server, "MAX_TABLE_CONNECTIONS", 2)
    made = new_table(client)
    with client.websocket_connect(f"/ws/{made['id']}") as one, client.websocket_connect(f"/ws/{made['id']}") as two:
        for socket in (one, two):
            socket.send_json({"type": "join", "token": "watch"})
            assert socket.receive_json()["type"] == "joined"
        with client.websocket_connect(f"/ws/{made['id']}") as three:
            assert three.receive_json() == {"type": "error", "reason": "too many connections to this table or server"}
    with client.websocket_connect(f"/ws/{made['id']}") as again:  # closed ones are counted out
        again.send_json({"type": "join", "token": "watch"})
        assert again.receive_json()["type"] == "joined"


def test_a_seat_out_of_time_is_answered_for_by_the_server_and_told(client, monkeypatch):
    import time

    from monopoly.web import server, table

    monkeypatch.setattr(server, "MIN_CLOCK", 1)  # a one-second clock: the test waits for it
    monkeypatch.setattr(table, "MIN_CLOCK", 1)
    made = new_table(client, clock=1)
    token = made["seats"][0]["link"].split("#")[1]
    with client.websocket_connect(f"/ws/{made['id']}") as socket:
        socket.send_json({"type": "join", "token": token})
        assert socket.receive_json()["type"] == "joined"
        hello = socket.receive_json()
        assert hello["limits"]["seconds_per_decision"] == 1
        decision = socket.receive_json()
        assert decision["type"] == "decision" and 0 < decision["clocks"]["decision"] <= 1
        started = time.monotonic()
        message = socket.receive_json()  # nothing sent: the server's clock answers
        assert message == {"type": "timeout", "id": decision["id"], "seat": 0, "kind": decision["kind"]}
        assert 0.5 < time.monotonic() - started < 5
        while message["type"] != "decision":
            message = socket.receive_json()
        assert message["id"] == decision["id"] + 1


@pytest.mark.parametrize(("extra", "words"), [({"clock": 2}, "5 to 3600 seconds"), ({"clock": "30"}, "seconds"),
                                              ({"minutes": 30}, "time limit"),
                                              ({"variants": ["time-limit"], "minutes": 0}, "1 to 1,440")])
def test_a_bad_clock_or_minutes_is_refused(client, extra, words):
    body = {"ruleset": "classic", "seats": [{"name": "A"}, {"bot": "greedy"}], **extra}
    made = client.post("/api/tables", json=body)
    assert made.status_code == 400 and words in made.json()["problems"][0]


def test_a_time_limit_table_keeps_its_minutes_and_clock_across_a_restart(tmp_path):
    first = TestClient(create_web_app(tmp_path))
    made = first.post("/api/tables", json={"ruleset": "classic", "variants": ["time-limit"], "minutes": 20,
                                           "clock": 60, "seed": 4, "seats": [{"name": "Ada"}, {"bot": "greedy"}]})
    assert made.status_code == 200, made.text
    table_id = made.json()["id"]
    kept = first.app.state.lobby.tables[table_id]
    assert kept.ruleset.rules.end.minutes == 20 and 19 * 60 < kept.clocks()["game"] <= 20 * 60
    second = TestClient(create_web_app(tmp_path))
    resumed = second.app.state.lobby.tables[table_id]
    assert resumed.clock == 60 and resumed.ruleset.rules.end.minutes == 20
    assert 19 * 60 < resumed.clocks()["game"] <= 20 * 60 and 59 < resumed.clocks()["decision"] <= 60  # asked anew
