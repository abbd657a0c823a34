"""The process's worker thread (games/worker.py): one thread, FIFO lanes, urgent work first."""

from __future__ import annotations

import threading

from asgiref.sync import SyncToAsync

from games.worker import WorkerThread, next_up, urgent
from onenight import asgi


def test_the_server_runs_everything_on_one_worker_thread() -> None:
    assert SyncToAsync.single_thread_executor is asgi.WORKER
    assert isinstance(asgi.WORKER, WorkerThread)


def test_each_lane_goes_ahead_of_the_next_in_order() -> None:
    worker = WorkerThread(name="test-worker")
    started, release = threading.Event(), threading.Event()
    order: list[str] = []
    threads: set[str] = set()

    def blocker() -> None:
        started.set()
        release.wait(5)

    def job(name: str) -> None:
        order.append(name)
        threads.add(threading.current_thread().name)

    try:
        running = worker.submit(blocker)
        assert started.wait(5)  # the call under way is never interrupted
        futures = [worker.submit(job, "page 1"), worker.submit(job, "page 2")]
        with next_up():
            futures.append(worker.submit(job, "new phase 1"))
        with urgent():
            futures += [worker.submit(job, "chat 1"), worker.submit(job, "chat 2")]
        futures.append(worker.submit(job, "page 3"))
        with next_up():
            futures.append(worker.submit(job, "new phase 2"))
        release.set()
        running.result(5)
        for future in futures:
            future.result(5)
    finally:
        worker.shutdown(wait=True)
    assert order == [
        "chat 1",
        "chat 2",
        "new phase 1",
        "new phase 2",
        "page 1",
        "page 2",
        "page 3",
    ]
    assert len(threads) == 1


def test_shutdown_waits_for_queued_work() -> None:
    worker = WorkerThread(name="test-worker")
    done: list[int] = []
    for i in range(20):
        if i % 3 == 0:
            with urgent():
                worker.submit(done.append, i)
        else:
            worker.submit(done.append, i)
    worker.shutdown(wait=True)
    assert sorted(done) == list(range(20))


def test_the_server_leaves_its_startup_objects_out_of_garbage_collection() -> None:
    """onenight/garbage.py: loading the application froze what it made, and full collections
    come ten times more rarely than CPython's default."""
    import gc

    from onenight import garbage

    assert gc.get_freeze_count() > 10_000
    assert gc.get_threshold()[2] == garbage.FULL_COLLECTION_EVERY == 100
