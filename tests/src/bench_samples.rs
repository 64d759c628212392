//! The requests the benchmarks time (`benches/wire.rs`, `benches/server_load.rs`,
//! `examples/wire_instructions.rs`): one definition, so that every figure is of the same
//! bytes.

use rmm_mobile::{Credentials, MobileAccountSearch, MobileTaskCreate};

/// The credentials of `captures/soap11-op01-ok.txt`.
pub fn credentials() -> Credentials {
    Credentials {
        repnumber: 42,
        timestamp: Some("2026-01-01T00:00:00Z".into()),
        sig: Some("abc".into()),
        mobilekey: Some("mk-1".into()),
    }
}

/// The request of `captures/soap11-op01-ok.txt` (27 parameters with the credentials):
/// XML-special characters, a newline, quotes, non-ASCII text and padding.
pub fn task_create() -> MobileTaskCreate {
    MobileTaskCreate {
        accountnumber: 1001,
        accountname: Some("Acme & Sons > 1 < 2".into()),
        contactnumber: 5,
        startdate: Some("2026-01-02".into()),
        enddate: Some("2026-01-03".into()),
        starttime: Some("08:30".into()),
        endtime: Some("17:00".into()),
        tasktype: Some("Call".into()),
        taskaction: Some("Follow up".into()),
        taskcomment: Some("Line1\nLine2 \"quoted\" 'single' 100% + a=b;c".into()),
        scheduledforrepnumber: 43,
        prioritynumber: 2,
        prioritytext: Some("High".into()),
        sonumber: 2147483647,
        opportunitynumber: -1,
        alarmindicator: true,
        alarmreminderquantity: 15,
        alarmreminderinterval: Some("Minutes".into()),
        subject: Some("Café naïve ☕".into()),
        location: Some("  padded  ".into()),
        taskcompletedindicator: false,
        checkconflicts: true,
        conflictoverride: false,
    }
}

/// The result string of `captures/soap11-op01-ok.txt` (unescaped): the host's echo of
/// [`task_create`] with [`credentials`].
pub const TASK_CREATE_ECHO: &str = "MobileTaskCreate(repnumber=42;accountnumber=1001;\
accountname=Acme & Sons > 1 < 2;contactnumber=5;startdate=2026-01-02;enddate=2026-01-03;\
starttime=08:30;endtime=17:00;tasktype=Call;taskaction=Follow up;taskcomment=Line1\n\
Line2 \"quoted\" 'single' 100% + a=b;c;scheduledforrepnumber=43;prioritynumber=2;\
prioritytext=High;sonumber=2147483647;opportunitynumber=-1;alarmindicator=true;\
alarmreminderquantity=15;alarmreminderinterval=Minutes;subject=Café naïve ☕;\
location=  padded  ;taskcompletedindicator=false;checkconflicts=true;conflictoverride=false;\
timestamp=2026-01-01T00:00:00Z;sig=abc;mobilekey=mk-1)";

/// A small request (7 parameters with the credentials) in the same spirit.
pub fn account_search() -> MobileAccountSearch {
    MobileAccountSearch {
        accountname: Some("Acme & Sons".into()),
        contactname: Some("Zoë O'Brien".into()),
        telephone: Some("+1 (555) 010-2030".into()),
        email: Some("zoe.obrien@example.com".into()),
    }
}
