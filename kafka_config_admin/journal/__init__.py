"""The journal: every change made through the change pipeline, from every face, recorded.

Each change an apply sends (a config key, a quota value, a SCRAM credential, a topic created
or grown) becomes a :class:`JournalEntry`: its id, its change set's id, the time (UTC), who
and from which face (:class:`Origin`), the cluster, the resource and key, the operation, the
old and new values, the outcome and the broker's message, and any guardrail overridden. A
sensitive key and a SCRAM credential are recorded with no value, and ``sensitive`` set.

The journal is an SQLite file (:class:`Journal`; :func:`journal_path`: the
``KAFKA_CONFIG_ADMIN_JOURNAL`` variable, else ``$XDG_DATA_HOME/kafka-config-admin/``),
safe for several processes writing at once; or a Kafka topic a clusters-file entry names
(:class:`TopicJournal`), shared by a team. Both are a :class:`JournalStore`, and
:func:`journal_of` chooses a cluster's. Hand a :class:`Recorder` to the pipeline's
apply and its changes are recorded::

    from kafka_config_admin.changeset import apply, review
    from kafka_config_admin.journal import Journal, Origin, Recorder

    recorder = Recorder(Journal.at(), Origin(face="sdk", user="alice", cluster="prod"))
    report = await apply(admin, await review(admin, changes), recorder=recorder)
    report.change_set_id  # or report.journal_error: why it could not be recorded

:func:`plan_undo` makes the change set that puts recorded changes back; :func:`plan_restore`
the one that puts resources' overrides back as they were at a time (from the journal and the
change feed's rows: :func:`read_feed_table`).
"""

from ._entries import JournalEntry, Origin, os_user
from ._feed_table import FeedTableError, read_feed_table
from ._recorder import Recorder, Recording
from ._restore import Restore, Restored, Unknown, plan_restore
from ._store import Journal, JournalError, JournalQuery, journal_path, parse_time
from ._stores import JournalStore, journal_of
from ._topic import JournalTopicError, TopicJournal
from ._undo import LeftAlone, Undo, plan_undo

__all__ = [
    "FeedTableError",
    "Journal",
    "JournalEntry",
    "JournalError",
    "JournalQuery",
    "JournalStore",
    "JournalTopicError",
    "LeftAlone",
    "Origin",
    "Recorder",
    "Recording",
    "Restore",
    "Restored",
    "TopicJournal",
    "Undo",
    "Unknown",
    "journal_of",
    "journal_path",
    "os_user",
    "parse_time",
    "plan_restore",
    "plan_undo",
    "read_feed_table",
]
