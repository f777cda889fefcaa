//! Multicast groups: each group of a flow has a distribution tree rooted at the flow's sender,
//! the union of the shortest paths (the unicast routes) from the sender to its current members.
//!
//! Forwarding state per tree node: the outgoing links that lead to members, each with the
//! number of members behind it, and the members sitting on the node. A packet is copied at a
//! node once per such link and never sent down a link with no member behind it.
//!
//! Membership is IGMP-like. A receiver's join request grafts its branch `join_latency` later;
//! its leave request prunes it `leave_latency` later, and until then the branch keeps carrying
//! the group (the receiver's host already ignores it: delivery needs both the request and the
//! branch). When requests overlap, the later request wins whatever the order in which their
//! effects come due. Everything is kept in vectors and a B-tree (flow, group) → tree: no
//! hash-order iteration.

use std::collections::BTreeMap;

use crate::topology::{LinkId, LinkSpec, NodeId};

/// Index of a group's tree.
pub type TreeId = u32;

/// One receiver's standing in one group.
#[derive(Clone, Copy, Debug, Default)]
struct MemberState {
    /// Its latest request was a join (its host hands the group's packets up).
    wanted: bool,
    /// Its branch is grafted.
    grafted: bool,
    /// Sequence number of its latest request, and of the latest request whose effect was applied.
    requested: u32,
    applied: u32,
}

/// Forwarding state of one node of a tree.
#[derive(Clone, Debug, Default)]
pub struct TreeNode {
    /// Outgoing links leading to members, in link order, with the members behind each.
    pub out: Vec<(LinkId, u32)>,
    /// Receivers (indices in the flow) grafted on this node, in order.
    pub local: Vec<u32>,
}

/// A tree's nodes, found by node id in one step (forwarding looks a node up per packet copy):
/// a slot per node id up to the largest on the tree, the nodes' state in reused slots.
#[derive(Default)]
struct NodeMap {
    slot: Vec<u32>,
    nodes: Vec<TreeNode>,
    free: Vec<u32>,
}

const NO_SLOT: u32 = u32::MAX;

impl NodeMap {
    fn get(&self, n: NodeId) -> Option<&TreeNode> {
        let s = *self.slot.get(n as usize)?;
        (s != NO_SLOT).then(|| &self.nodes[s as usize])
    }

    fn get_mut(&mut self, n: NodeId) -> Option<&mut TreeNode> {
        let s = *self.slot.get(n as usize)?;
        (s != NO_SLOT).then(|| &mut self.nodes[s as usize])
    }

    fn entry(&mut self, n: NodeId) -> &mut TreeNode {
        if self.slot.len() <= n as usize {
            self.slot.resize(n as usize + 1, NO_SLOT);
        }
        if self.slot[n as usize] == NO_SLOT {
            self.slot[n as usize] = match self.free.pop() {
                Some(s) => s,
                None => {
                    self.nodes.push(TreeNode::default());
                    (self.nodes.len() - 1) as u32
                }
            };
        }
        &mut self.nodes[self.slot[n as usize] as usize]
    }

    fn remove(&mut self, n: NodeId) {
        if let Some(&s) = self.slot.get(n as usize) {
            if s != NO_SLOT {
                self.nodes[s as usize] = TreeNode::default();
                self.free.push(s);
                self.slot[n as usize] = NO_SLOT;
            }
        }
    }
}

/// One group's tree.
pub struct Tree {
    pub flow: u32,
    pub group: u32,
    nodes: NodeMap,
    state: Vec<MemberState>,
    /// Grafted receivers, in order.
    grafted: Vec<u32>,
}

impl Tree {
    pub fn node(&self, n: NodeId) -> Option<&TreeNode> {
        self.nodes.get(n)
    }

    /// Does receiver `r`'s host want the group's packets?
    pub fn wants(&self, r: u32) -> bool {
        self.state[r as usize].wanted
    }

    /// The receivers that count a packet sent now: grafted and wanting it, in order.
    pub fn audience(&self) -> impl Iterator<Item = u32> + '_ {
        self.grafted.iter().copied().filter(|&r| self.state[r as usize].wanted)
    }

    /// Receivers grafted below `link` (on its far node and further down), in tree order.
    pub fn below(&self, links: &[LinkSpec], link: LinkId, out: &mut Vec<u32>) {
        let mut stack = vec![links[link as usize].to];
        while let Some(n) = stack.pop() {
            if let Some(tn) = self.nodes.get(n) {
                out.extend_from_slice(&tn.local);
                stack.extend(tn.out.iter().rev().map(|&(l, _)| links[l as usize].to));
            }
        }
    }

    fn graft(&mut self, links: &[LinkSpec], r: u32, path: &[LinkId], node: NodeId) {
        for &l in path {
            let tn = self.nodes.entry(links[l as usize].from);
            match tn.out.binary_search_by_key(&l, |&(x, _)| x) {
                Ok(i) => tn.out[i].1 += 1,
                Err(i) => tn.out.insert(i, (l, 1)),
            }
        }
        let tn = self.nodes.entry(node);
        if let Err(i) = tn.local.binary_search(&r) {
            tn.local.insert(i, r);
        }
        if let Err(i) = self.grafted.binary_search(&r) {
            self.grafted.insert(i, r);
        }
    }

    fn prune(&mut self, links: &[LinkSpec], r: u32, path: &[LinkId], node: NodeId) {
        if let Some(tn) = self.nodes.get_mut(node) {
            if let Ok(i) = tn.local.binary_search(&r) {
                tn.local.remove(i);
            }
        }
        for &l in path {
            let from = links[l as usize].from;
            let tn = self.nodes.get_mut(from).expect("a grafted branch's nodes are on the tree");
            let i = tn.out.binary_search_by_key(&l, |&(x, _)| x).expect("a grafted branch's links are on the tree");
            tn.out[i].1 -= 1;
            if tn.out[i].1 == 0 {
                tn.out.remove(i);
            }
        }
        // Drop nodes left with no state (the tree holds only what leads to members).
        for n in path.iter().map(|&l| links[l as usize].to).chain(path.first().map(|&l| links[l as usize].from)) {
            if self.nodes.get(n).is_some_and(|tn| tn.out.is_empty() && tn.local.is_empty()) {
                self.nodes.remove(n);
            }
        }
        if let Ok(i) = self.grafted.binary_search(&r) {
            self.grafted.remove(i);
        }
    }
}

/// A membership change that comes due later.
#[derive(Clone, Copy, Debug)]
pub struct PendingChange {
    pub tree: TreeId,
    pub receiver: u32,
    pub join: bool,
    pub seq: u32,
}

/// Every group of every flow.
#[derive(Default)]
pub struct Groups {
    pub trees: Vec<Tree>,
    index: BTreeMap<(u32, u32), TreeId>,
}

impl Groups {
    /// The tree of `group` of `flow` (with `receivers` receivers), made empty on first use.
    pub fn tree_of(&mut self, flow: u32, group: u32, receivers: u32) -> TreeId {
        let next = self.trees.len() as TreeId;
        let id = *self.index.entry((flow, group)).or_insert(next);
        if id == next {
            self.trees.push(Tree {
                flow,
                group,
                nodes: NodeMap::default(),
                state: vec![MemberState::default(); receivers as usize],
                grafted: Vec::new(),
            });
        }
        id
    }

    /// A receiver asks to join (or leave): its host follows at once; the returned change is
    /// for the network to carry out after the latency.
    pub fn request(&mut self, tree: TreeId, receiver: u32, join: bool) -> PendingChange {
        let s = &mut self.trees[tree as usize].state[receiver as usize];
        s.wanted = join;
        s.requested += 1;
        PendingChange { tree, receiver, join, seq: s.requested }
    }

    /// Carries out a change that came due, unless a later request's change was already applied.
    /// Returns whether the tree changed.
    pub fn apply(&mut self, c: PendingChange, links: &[LinkSpec], path: &[LinkId], node: NodeId) -> bool {
        let t = &mut self.trees[c.tree as usize];
        let s = &mut t.state[c.receiver as usize];
        if c.seq <= s.applied {
            return false;
        }
        s.applied = c.seq;
        if s.grafted == c.join {
            return false;
        }
        s.grafted = c.join;
        if c.join {
            t.graft(links, c.receiver, path, node);
        } else {
            t.prune(links, c.receiver, path, node);
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{QueueConfig, QueueLimit};
    use vidcc_core::{DataRate, Duration};

    /// S → R, then R → A and R → B (links 0, 1, 2).
    fn star() -> Vec<LinkSpec> {
        let l = |from, to| LinkSpec {
            name: format!("{from}->{to}"),
            from,
            to,
            bandwidth: DataRate::from_bps(1),
            delay: Duration::ZERO,
            queue: QueueConfig::DropTail { limit: QueueLimit::Packets(1) },
            loss: None,
            arq: None,
            monitored: false,
            forward: true,
        };
        vec![l(0, 1), l(1, 2), l(1, 3)]
    }

    #[test]
    fn grafts_count_members_per_link_and_prunes_remove_empty_branches() {
        let links = star();
        let mut g = Groups::default();
        let t = g.tree_of(0, 0, 2);
        let a = g.request(t, 0, true);
        let b = g.request(t, 1, true);
        assert!(g.apply(a, &links, &[0, 1], 2));
        assert!(g.apply(b, &links, &[0, 2], 3));
        let tree = &g.trees[t as usize];
        assert_eq!(tree.node(0).unwrap().out, [(0, 2)]);
        assert_eq!(tree.node(1).unwrap().out, [(1, 1), (2, 1)]);
        let mut below = Vec::new();
        tree.below(&links, 0, &mut below);
        assert_eq!(below, [0, 1]);
        let leave = g.request(t, 0, false);
        assert!(g.apply(leave, &links, &[0, 1], 2));
        let tree = &g.trees[t as usize];
        assert_eq!(tree.node(0).unwrap().out, [(0, 1)]);
        assert_eq!(tree.node(1).unwrap().out, [(2, 1)]);
        assert!(tree.node(2).is_none(), "the pruned leaf keeps no state");
        assert_eq!(tree.audience().collect::<Vec<_>>(), [1]);
    }

    #[test]
    fn the_later_request_wins_whatever_order_the_changes_come_due() {
        let links = star();
        let mut g = Groups::default();
        let t = g.tree_of(0, 0, 1);
        let join = g.request(t, 0, true);
        let leave = g.request(t, 0, false);
        // A short leave latency: the leave comes due first, then the join must not graft.
        assert!(!g.apply(leave, &links, &[0, 1], 2));
        assert!(!g.apply(join, &links, &[0, 1], 2));
        assert!(g.trees[t as usize].node(0).is_none());
        assert!(!g.trees[t as usize].wants(0));
    }
}
