//! A derived class is a flat struct, its inherited members first; its base part converts to
//! the base class and back (`From` both ways), so code written against the base works with it.

use rmm_objects::{Circle, ColoredCircle};

fn text(s: &str) -> Option<String> {
    Some(s.to_owned())
}

#[test]
fn a_derived_class_converts_to_its_base_and_back() {
    let colored = ColoredCircle {
        tag: text("t"),
        name: text("c"),
        radius: 2.5,
        color: text("red"),
    };
    // The base part: the inherited attribute and members, the derived one's own dropped.
    let circle = Circle::from(colored.clone());
    assert_eq!(
        circle,
        Circle {
            tag: text("t"),
            name: text("c"),
            radius: 2.5,
        }
    );
    // Back, with its own members set on top of the base part.
    let back = ColoredCircle {
        color: text("red"),
        ..circle.into()
    };
    assert_eq!(back, colored);
    // Its own members at their defaults.
    assert_eq!(
        ColoredCircle::from(Circle {
            radius: 1.0,
            ..Circle::default()
        }),
        ColoredCircle {
            radius: 1.0,
            ..ColoredCircle::default()
        }
    );
}
