//! Construction of apipe ops for passes, through the typed builders that
//! melior's `dialect!` macro generates from `ApipeOps.td` ([`crate::ops`]):
//! operand and attribute names and the required ones come from the ODS, so
//! a pass cannot build an op the dialect does not define (a missing
//! required operand or attribute is a compile error, not a verifier one).
//!
//! Conventions shared by every function here:
//! - `queue` is the optional ODS attribute: `None` leaves it out, which
//!   means queue 0 (docs/dialect.md); `Some(q)` sets it, 0 included (the
//!   pipeliner names every async stage's queue);
//! - integer attributes are `i64`, as the ODS `I64Attr` says;
//! - the op is returned detached: the caller inserts it.
//!
//! [`with_discardable_attributes`] copies the attributes that the ODS does
//! not define (`apipe.stage`, user annotations, ...) from the op a pass
//! replaces.

use crate::{attributes, ops};
use melior::{
    ir::{
        attribute::{Attribute, IntegerAttribute},
        operation::OperationMutLike,
        r#type::IntegerType,
        Identifier, Location, Operation, Type, Value,
    },
    Context,
};

/// The ODS-defined attribute names of the apipe ops (kept by the typed
/// builders, not copied by [`with_discardable_attributes`]).
const INHERENT: &[&str] = &[
    attributes::QUEUE,
    attributes::PENDING,
    attributes::ELEMENTS,
    attributes::BYPASS_L1,
    attributes::BYTES,
];

fn i64_attribute(context: &Context, value: i64) -> IntegerAttribute<'_> {
    IntegerAttribute::new(IntegerType::new(context, 64).into(), value)
}

/// `apipe.copy %src[indices...], %dst[...], elements {queue, bypass_l1}`:
/// `indices` are the source indices, then the destination ones, then the
/// optional `src_elements` operand (docs/dialect.md, `apipe.copy`).
#[allow(clippy::too_many_arguments)]
pub fn copy<'c>(
    context: &'c Context,
    src: Value<'c, '_>,
    dst: Value<'c, '_>,
    indices: &[Value<'c, '_>],
    elements: i64,
    queue: Option<i64>,
    bypass_l1: bool,
    location: Location<'c>,
) -> Operation<'c> {
    let mut builder = ops::CopyOperationBuilder::new(context, location)
        .src(src)
        .dst(dst)
        .indices(indices)
        .elements(i64_attribute(context, elements));
    if let Some(queue) = queue {
        builder = builder.queue(i64_attribute(context, queue));
    }
    let mut copy: Operation = builder.build().into();
    // melior's builders take no unit attributes (`UnitAttr` in the ODS).
    if bypass_l1 {
        copy.set_attribute(attributes::BYPASS_L1, Attribute::unit(context));
    }
    copy
}

/// `apipe.commit_group {queue}`, with a `!apipe.token` result of type
/// `token` in token form (`Some`), none in counting form.
pub fn commit_group<'c>(
    context: &'c Context,
    queue: Option<i64>,
    token: Option<Type<'c>>,
    location: Location<'c>,
) -> Operation<'c> {
    let mut builder = ops::CommitGroupOperationBuilder::new(context, location);
    if let Some(queue) = queue {
        builder = builder.queue(i64_attribute(context, queue));
    }
    if let Some(token) = token {
        builder = builder.token(token);
    }
    builder.build().into()
}

/// `apipe.wait_group pending {queue}`: waits until at most `pending`
/// groups of `queue` are in flight.
pub fn wait_group<'c>(
    context: &'c Context,
    pending: i64,
    queue: Option<i64>,
    location: Location<'c>,
) -> Operation<'c> {
    let mut builder = ops::WaitGroupOperationBuilder::new(context, location)
        .pending(i64_attribute(context, pending));
    if let Some(queue) = queue {
        builder = builder.queue(i64_attribute(context, queue));
    }
    builder.build().into()
}

/// `apipe.wait %tokens...`: waits for the groups the tokens name.
pub fn wait<'c>(
    context: &'c Context,
    tokens: &[Value<'c, '_>],
    location: Location<'c>,
) -> Operation<'c> {
    ops::WaitOperationBuilder::new(context, location)
        .tokens(tokens)
        .build()
        .into()
}

/// `%t = apipe.ready {queue}`: a token (of type `token`) of a group that is
/// already complete.
pub fn ready<'c>(
    context: &'c Context,
    queue: Option<i64>,
    token: Type<'c>,
    location: Location<'c>,
) -> Operation<'c> {
    let mut builder = ops::ReadyOperationBuilder::new(context, location).token(token);
    if let Some(queue) = queue {
        builder = builder.queue(i64_attribute(context, queue));
    }
    builder.build().into()
}

/// `apipe.mbarrier_init %ring, %count`: every slot of `ring` expects
/// `count` arrivals per phase.
pub fn mbarrier_init<'c>(
    context: &'c Context,
    ring: Value<'c, '_>,
    count: Value<'c, '_>,
    location: Location<'c>,
) -> Operation<'c> {
    ops::MbarrierInitOperationBuilder::new(context, location)
        .ring(ring)
        .count(count)
        .build()
        .into()
}

/// `apipe.mbarrier_arrive_copies %ring[%slot]`: arrives on the slot when
/// this thread's earlier copies complete (`cp.async.mbarrier.arrive.noinc`).
pub fn mbarrier_arrive_copies<'c>(
    context: &'c Context,
    ring: Value<'c, '_>,
    slot: Value<'c, '_>,
    location: Location<'c>,
) -> Operation<'c> {
    ops::MbarrierArriveCopiesOperationBuilder::new(context, location)
        .ring(ring)
        .slot(slot)
        .build()
        .into()
}

/// `apipe.mbarrier_wait %ring[%slot], %parity`: waits until the slot's
/// phase with parity `parity` (an `i1`) has completed.
pub fn mbarrier_wait<'c>(
    context: &'c Context,
    ring: Value<'c, '_>,
    slot: Value<'c, '_>,
    parity: Value<'c, '_>,
    location: Location<'c>,
) -> Operation<'c> {
    ops::MbarrierWaitOperationBuilder::new(context, location)
        .ring(ring)
        .slot(slot)
        .parity(parity)
        .build()
        .into()
}

/// Copies onto `op` the attributes of `from` that the ODS does not define
/// for apipe ops (discardable ones such as `apipe.stage`); the inherent
/// ones are the typed builder's.
pub fn with_discardable_attributes<'c>(
    mut op: Operation<'c>,
    from: &[(Identifier<'c>, Attribute<'c>)],
) -> Operation<'c> {
    for (name, value) in from {
        let name = name.as_string_ref();
        let Ok(name) = name.as_str() else { continue };
        if !INHERENT.contains(&name) {
            op.set_attribute(name, *value);
        }
    }
    op
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::create_context;
    use melior::ir::{operation::OperationLike, BlockLike, Location, Module};

    #[test]
    fn builders_make_valid_ops_in_custom_syntax() {
        let context = create_context().unwrap();
        let location = Location::unknown(&context);
        let token = Type::parse(&context, ops::TOKEN_TYPE).unwrap();
        let module = Module::new(location);
        let body = module.body();
        let commit = body.append_operation(commit_group(&context, Some(2), Some(token), location));
        body.append_operation(commit_group(&context, None, None, location));
        body.append_operation(wait(
            &context,
            &[commit.result(0).unwrap().into()],
            location,
        ));
        body.append_operation(wait_group(&context, 1, Some(3), location));
        body.append_operation(ready(&context, None, token, location));
        assert!(module.as_operation().verify());
        let text = module.as_operation().to_string();
        let lines: Vec<&str> = text.lines().map(str::trim).collect();
        assert_eq!(
            lines,
            [
                "module {",
                "%0 = apipe.commit_group queue 2",
                "apipe.commit_group",
                "apipe.wait %0",
                "apipe.wait_group 1 queue 3",
                "%1 = apipe.ready",
                "}",
            ],
            "{text}"
        );
    }

    #[test]
    fn discardable_attributes_are_copied_and_inherent_ones_kept() {
        let context = create_context().unwrap();
        let location = Location::unknown(&context);
        let stage = (
            Identifier::new(&context, "apipe.stage"),
            i64_attribute(&context, 1).into(),
        );
        let queue = (
            Identifier::new(&context, attributes::QUEUE),
            i64_attribute(&context, 5).into(),
        );
        let op = with_discardable_attributes(
            wait_group(&context, 0, Some(2), location),
            &[stage, queue],
        );
        assert_eq!(attributes::queue(&op), 2);
        assert!(op.has_attribute("apipe.stage"));
    }
}
